// Work a component starts after it renders and without which its slide is not drawn yet: a diagram
// drawn by a module loaded on demand, the brand logo loading. The player reports ready (the export
// renderer's signal to print) only once none is left, so PDF and PPTX never catch a slide half drawn.

const pending = new Set<Promise<unknown>>();

/** Holds the player's ready report until `work` settles (either way: a failure is the component's to show). */
export function holdReady(work: Promise<unknown>): void {
  const tracked = work.then(
    () => undefined,
    () => undefined,
  );
  pending.add(tracked);
  void tracked.then(() => pending.delete(tracked));
}

/** Settles once no held work is left, including work started while waiting. */
export async function heldWorkDone(): Promise<void> {
  while (pending.size > 0) await Promise.all([...pending]);
}
