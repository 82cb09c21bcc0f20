import { type FormEvent, startTransition } from "react";

// A form's submit handler that runs its action (from useActionState) without React's reset of the form
// afterwards. The form's fields stay uncontrolled: React never writes to them, so what a person typed
// before the page's script ran is not replaced by an empty state on the next render (issue 33: a name
// typed before hydration was cleared when the email was typed after it), and a refusal leaves every field
// as it was. Before the script runs, the form posts natively to the server action (`action={…}` stays on
// the form for that).
export function submitKeepingFields(action: (form: FormData) => void) {
  return (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const form = new FormData(event.currentTarget, submitter);
    startTransition(() => action(form));
  };
}
