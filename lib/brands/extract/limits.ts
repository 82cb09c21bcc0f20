// What one brand extraction reads at most. Generous for real sites (a full utility-CSS build is about
// 10,000 rules and a few hundred colours), small enough that a hostile site cannot turn one extraction
// into minutes of work: beyond a limit the rest is left unread (the brand comes from what was read), and
// the worker that runs the extraction is stopped at the deadline.
export const extractionLimits = {
  /** All stylesheets of a page together (each is also at most 2 MB): sheets past this are not fetched. */
  cssBytes: 4 * 1024 * 1024,
  /** Style rules read, across the sheets, <style> elements and style attributes, in cascade order. */
  rules: 20_000,
  /** Declarations read in those rules. */
  declarations: 100_000,
  /** Distinct colours clustered into the palette: the most used ones (clustering compares every pair). */
  distinctColors: 1_500,
  /** Wall-clock time for the CPU work of one extraction (parsing, the CSS model, clustering). */
  deadlineMs: 20_000,
  /** Heap of the worker thread that does it. */
  workerHeapMb: 512,
} as const;
