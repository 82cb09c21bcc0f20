import { Component, type ContextType, type ErrorInfo, type ReactNode } from "react";
import { PlayerContext } from "./player-context";

export function ErrorPanel({ title, detail, message }: { title: string; detail?: string; message: string }) {
  return (
    <div className="dh-error" role="alert">
      <div className="dh-error-title">{title}</div>
      {detail ? <div className="dh-error-detail">{detail}</div> : null}
      <pre className="dh-error-message">{message}</pre>
    </div>
  );
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

type BoundaryState = { error: unknown };

// One slide's failure shows a panel on that slide; the others keep working. A slide kept from one module to
// the next (the editor's in-place update, structure.tsx) keeps its panel, and reports its failure again to
// the new revision, which starts with no errors.
export class SectionBoundary extends Component<{ index: number; label?: string; children: ReactNode }, BoundaryState> {
  static override contextType = PlayerContext;
  declare context: ContextType<typeof PlayerContext>;
  override state: BoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { error };
  }

  private label(): string | undefined {
    return this.props.label ?? this.context?.slides[this.props.index]?.label;
  }

  private revision: number | undefined;

  override componentDidMount() {
    this.revision = this.context?.revision;
  }

  override componentDidCatch(error: unknown, _info: ErrorInfo) {
    this.report(error);
  }

  override componentDidUpdate() {
    if (this.context?.revision === this.revision) return;
    this.revision = this.context?.revision;
    if (this.state.error !== null) this.report(this.state.error);
  }

  private report(error: unknown) {
    const label = this.label();
    this.context?.reportError(`Slide ${this.props.index + 1}${label ? ` (${label})` : ""}: ${describeError(error)}`);
  }

  override render() {
    if (this.state.error === null) return this.props.children;
    const kind = this.context?.config.format === "webpage" ? "Section" : "Slide";
    const label = this.label();
    return (
      <section
        className={kind === "Slide" ? "dh-slide dh-slide-error" : "dh-beat dh-slide-error"}
        aria-label={label ?? `${kind} ${this.props.index + 1}`}
      >
        <ErrorPanel
          title={`This ${kind.toLowerCase()} could not be shown`}
          detail={`${kind} ${this.props.index + 1}${label && !label.startsWith(kind) ? ` · ${label}` : ""}`}
          message={describeError(this.state.error)}
        />
      </section>
    );
  }
}

// Failures outside any slide (the module's top level, the Deck itself). A newer module (`revision`) is tried
// again.
export class RootBoundary extends Component<
  { children: ReactNode; onError: (message: string) => void; revision?: number },
  BoundaryState & { revision?: number }
> {
  override state: BoundaryState & { revision?: number } = { error: null, revision: this.props.revision };

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { error };
  }

  static getDerivedStateFromProps(
    props: { revision?: number },
    state: BoundaryState & { revision?: number },
  ): Partial<BoundaryState & { revision?: number }> | null {
    return props.revision === state.revision ? null : { error: null, revision: props.revision };
  }

  override componentDidCatch(error: unknown) {
    this.props.onError(`Deck: ${describeError(error)}`);
  }

  override render() {
    if (this.state.error === null) return this.props.children;
    return (
      <div className="dh-error-screen">
        <ErrorPanel title="This deck could not be shown" message={describeError(this.state.error)} />
      </div>
    );
  }
}
