"use client";

import type { FormHTMLAttributes } from "react";

// A form that submits itself when one of its fields changes (a select picked, a box ticked, a search
// confirmed with Enter or by leaving the field): filters apply as they change. The submit button it holds
// is for browsers without scripts.
export function AutoSubmitForm(props: FormHTMLAttributes<HTMLFormElement>) {
  return <form {...props} onChange={(event) => event.currentTarget.requestSubmit()} />;
}
