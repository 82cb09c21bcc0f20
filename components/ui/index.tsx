import type {
  AnchorHTMLAttributes,
  ButtonHTMLAttributes,
  InputHTMLAttributes,
  ReactNode,
  SelectHTMLAttributes,
} from "react";

// The app's small component set: one look for buttons, fields, cards, badges and notices.

const cx = (...classes: (string | false | null | undefined)[]) => classes.filter(Boolean).join(" ");

const focus = "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent";

type Variant = "primary" | "secondary" | "danger" | "ghost";

export const buttonStyles = (variant: Variant, className?: string) =>
  cx(
    "inline-flex items-center justify-center gap-2 rounded-md px-3.5 py-2 text-sm font-medium disabled:cursor-not-allowed disabled:opacity-60",
    focus,
    {
      primary: "bg-accent text-white hover:bg-accent-strong",
      secondary: "bg-white text-zinc-900 ring-1 ring-zinc-300 hover:bg-zinc-50",
      danger: "bg-white text-red-700 ring-1 ring-red-200 hover:bg-red-50",
      ghost: "text-zinc-700 hover:bg-zinc-100",
    }[variant],
    className,
  );

export function Button({
  variant = "primary",
  className,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant }) {
  return <button className={buttonStyles(variant, className)} {...props} />;
}

/** A link that looks like a button (navigation, not an action). */
export function ButtonLink({
  variant = "primary",
  className,
  ...props
}: AnchorHTMLAttributes<HTMLAnchorElement> & { variant?: Variant }) {
  return <a className={buttonStyles(variant, className)} {...props} />;
}

export function Field({ label, hint, children }: { label: string; hint?: string; children: ReactNode }) {
  return (
    <label className="block space-y-1.5">
      <span className="block text-sm font-medium text-zinc-800">{label}</span>
      {children}
      {hint && <span className="block text-xs text-zinc-500">{hint}</span>}
    </label>
  );
}

// Full width unless the caller gives a width.
const width = (className?: string) => (/(^|\s)w-/.test(className ?? "") ? "" : "w-full");

const control =
  "block rounded-md border-0 bg-white px-3 py-2 text-sm text-zinc-900 shadow-xs ring-1 ring-zinc-300 placeholder:text-zinc-400 focus:ring-2 focus:ring-accent focus:outline-none";

export function Input({ className, ...props }: InputHTMLAttributes<HTMLInputElement>) {
  return <input className={cx(control, width(className), className)} {...props} />;
}

export function Select({ className, ...props }: SelectHTMLAttributes<HTMLSelectElement>) {
  return <select className={cx(control, width(className), "pr-8", className)} {...props} />;
}

export function Card({ className, children }: { className?: string; children: ReactNode }) {
  return <div className={cx("rounded-xl bg-white p-6 shadow-sm ring-1 ring-zinc-200", className)}>{children}</div>;
}

export function Badge({
  tone = "neutral",
  children,
}: {
  tone?: "neutral" | "accent" | "green" | "amber";
  children: ReactNode;
}) {
  const styles = {
    neutral: "bg-zinc-100 text-zinc-700",
    accent: "bg-indigo-50 text-indigo-700",
    green: "bg-emerald-50 text-emerald-700",
    amber: "bg-amber-50 text-amber-800",
  }[tone];
  return (
    <span className={cx("inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium", styles)}>
      {children}
    </span>
  );
}

export function Notice({ tone = "error", children }: { tone?: "error" | "success" | "info"; children: ReactNode }) {
  const styles = {
    error: "bg-red-50 text-red-800 ring-red-200",
    success: "bg-emerald-50 text-emerald-800 ring-emerald-200",
    info: "bg-zinc-50 text-zinc-700 ring-zinc-200",
  }[tone];
  return (
    <div role={tone === "error" ? "alert" : "status"} className={cx("rounded-md px-3 py-2 text-sm ring-1", styles)}>
      {children}
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-xl border border-dashed border-zinc-300 px-6 py-12 text-center">
      <p className="text-sm font-semibold text-zinc-900">{title}</p>
      {children && <div className="mt-2 text-sm text-zinc-600">{children}</div>}
    </div>
  );
}

/** A row of tabs: "pill" (dark selected pill) or "segment" (small, the selected one raised). */
export function Tabs<T extends string>({
  items,
  value,
  onChange,
  look = "pill",
  className,
}: {
  items: { value: T; label: string; disabled?: boolean }[];
  value: T;
  onChange: (value: T) => void;
  look?: "pill" | "segment";
  className?: string;
}) {
  return (
    <div className={cx("flex gap-1", className)} role="tablist">
      {items.map((item) => (
        <button
          key={item.value}
          type="button"
          role="tab"
          aria-selected={value === item.value}
          disabled={item.disabled}
          onClick={() => onChange(item.value)}
          className={cx(
            "rounded font-medium disabled:opacity-40",
            focus,
            look === "pill" ? "px-3 py-1.5 text-sm" : "px-2.5 py-1 text-xs",
            value === item.value
              ? look === "pill"
                ? "bg-zinc-900 text-white"
                : "bg-white shadow-sm ring-1 ring-zinc-200"
              : look === "pill"
                ? "text-zinc-700 hover:bg-zinc-100"
                : "text-zinc-600",
          )}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}
