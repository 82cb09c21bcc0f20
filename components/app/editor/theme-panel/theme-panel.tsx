"use client";

import { type ReactNode, useId, useMemo, useState } from "react";
import { Notice } from "@/components/ui";
import { parseFontFamilyList, shippedFonts } from "@/lib/contract/fonts";
import { setTokenValue } from "@/lib/source/token-edit";
import { parseTokensCss } from "@/lib/source/tokens";
import { hexContrast, MIN_CONTRAST, toHexColor } from "./colors";
import { fontStack } from "@/lib/contract/fonts";
import { type TokenControl, tokenControls, typeScales } from "./token-controls";

// The editor's theme panel: every theme token of the vocabulary as a control, over the same tokensCss the
// "Theme tokens (CSS)" tab shows. A change rewrites only that token's declaration (setTokenValue), so the
// raw CSS, the live preview and the next version all follow it. Colours show their contrast with the
// colours they are drawn with (text on background, and background under text) and warn under 4.5:1. When
// the deck has a brand, its tokens are the starting point: a value that differs from the brand's says so
// and can be taken back. Tokens that do not parse are fixed in the CSS tab first; the panel says why.

type Brand = { name: string; tokensCss: string } | null;

export function ThemePanel({
  tokensCss,
  onChange,
  brand,
}: {
  tokensCss: string;
  onChange: (tokensCss: string) => void;
  brand: Brand;
}) {
  const [error, setError] = useState<string | null>(null);
  const parsed = useMemo(() => {
    try {
      return { properties: parseTokensCss(tokensCss).properties, problem: null };
    } catch (problem) {
      return { properties: {} as Record<string, string>, problem: (problem as Error).message };
    }
  }, [tokensCss]);
  const brandValues = useMemo(() => {
    try {
      return brand ? parseTokensCss(brand.tokensCss).properties : {};
    } catch {
      return {};
    }
  }, [brand]);

  const valueOf = (name: string) => parsed.properties[name] ?? tokenControls.find((t) => t.name === name)!.default;
  const write = (name: string, value: string) => {
    try {
      onChange(setTokenValue(tokensCss, name, value));
      setError(null);
    } catch (problem) {
      setError((problem as Error).message);
    }
  };
  const disabled = parsed.problem !== null;
  const groups: { title: string; controls: TokenControl[] }[] = [
    { title: "Colours", controls: tokenControls.filter((t) => t.kind === "color") },
    { title: "Type", controls: tokenControls.filter((t) => t.kind === "font" || t.name.startsWith("--type-")) },
    {
      title: "Shape and spacing",
      controls: tokenControls.filter((t) => t.kind !== "color" && t.kind !== "font" && !t.name.startsWith("--type-")),
    },
  ];

  return (
    <div className="h-full space-y-5 overflow-y-auto bg-white p-4 text-sm" data-testid="theme-panel">
      {brand && (
        <p className="text-xs text-zinc-600">
          Starting point: the tokens of the brand “{brand.name}”. Values you change here say what the brand had.
        </p>
      )}
      {parsed.problem && (
        <Notice>
          The theme tokens do not parse, so they can only be changed in the CSS tab until they do: {parsed.problem}
        </Notice>
      )}
      {error && <Notice>{error}</Notice>}
      {groups.map((group) => (
        <fieldset key={group.title} className="space-y-3" disabled={disabled}>
          <legend className="mb-2 text-xs font-semibold tracking-wide text-zinc-500 uppercase">{group.title}</legend>
          {group.controls.map((control) => (
            <TokenRow
              key={control.name}
              control={control}
              value={valueOf(control.name)}
              declared={control.name in parsed.properties}
              brandValue={brandValues[control.name]}
              valueOf={valueOf}
              onWrite={(value) => write(control.name, value)}
              disabled={disabled}
            />
          ))}
        </fieldset>
      ))}
    </div>
  );
}

function TokenRow({
  control,
  value,
  declared,
  brandValue,
  valueOf,
  onWrite,
  disabled,
}: {
  control: TokenControl;
  value: string;
  declared: boolean;
  brandValue: string | undefined;
  valueOf: (name: string) => string;
  onWrite: (value: string) => void;
  disabled: boolean;
}) {
  const id = useId();
  const label = (
    <label htmlFor={id} className="block font-medium text-zinc-800" title={control.doc}>
      {control.label}
    </label>
  );
  const fromBrand = brandValue !== undefined && brandValue !== value && (
    <p className="text-xs text-zinc-500">
      Brand: <span className="font-mono">{brandValue}</span>{" "}
      <button
        type="button"
        className="font-medium text-accent hover:underline"
        onClick={() => onWrite(brandValue)}
        disabled={disabled}
        aria-label={`Use the brand's ${control.label.toLowerCase()}`}
      >
        Use the brand&apos;s
      </button>
    </p>
  );
  return (
    <div className="space-y-1" data-token={control.name}>
      {control.kind === "color" ? (
        <ColorControl id={id} label={label} control={control} value={value} valueOf={valueOf} onWrite={onWrite} />
      ) : (
        <>
          {label}
          {control.kind === "font" ? (
            <FontControl id={id} control={control} value={value} onWrite={onWrite} />
          ) : control.kind === "ratio" ? (
            <RatioControl id={id} value={value} onWrite={onWrite} />
          ) : control.kind === "px" ? (
            <PxControl id={id} control={control} value={value} onWrite={onWrite} />
          ) : (
            <TextControl id={id} value={value} onWrite={onWrite} />
          )}
        </>
      )}
      {!declared && <p className="text-xs text-zinc-500">Not set: the default theme&apos;s value.</p>}
      {fromBrand}
    </div>
  );
}

function ColorControl({
  id,
  label,
  control,
  value,
  valueOf,
  onWrite,
}: {
  id: string;
  label: ReactNode;
  control: Extract<TokenControl, { kind: "color" }>;
  value: string;
  valueOf: (name: string) => string;
  onWrite: (value: string) => void;
}) {
  const hex = toHexColor(value);
  const partners = control.contrastWith.map((name) => {
    const other = tokenControls.find((t) => t.name === name)!;
    const otherHex = toHexColor(valueOf(name));
    return { name, label: other.label, ratio: hex && otherHex ? hexContrast(hex, otherHex) : null };
  });
  return (
    <div className="flex items-start gap-3">
      <input
        id={id}
        type="color"
        value={hex ?? "#000000"}
        onChange={(event) => onWrite(event.target.value)}
        className="h-9 w-12 shrink-0 cursor-pointer rounded border-0 bg-transparent p-0 disabled:cursor-not-allowed"
      />
      <div className="min-w-0 flex-1 space-y-0.5">
        <div className="flex flex-wrap items-baseline gap-x-2">
          {label}
          <span className="font-mono text-xs text-zinc-600" data-testid="token-value">
            {hex ?? value}
          </span>
        </div>
        {!hex && <p className="text-xs text-zinc-500">Not a plain colour ({value}); picking one replaces it.</p>}
        {partners.map((partner) =>
          partner.ratio === null ? null : (
            <p
              key={partner.name}
              className={`text-xs ${partner.ratio < MIN_CONTRAST ? "font-medium text-amber-800" : "text-zinc-500"}`}
              data-contrast={partner.ratio < MIN_CONTRAST ? "low" : "ok"}
            >
              {partner.ratio.toFixed(2)}:1 against {partner.label.toLowerCase()}
              {partner.ratio < MIN_CONTRAST && ` — under ${MIN_CONTRAST}:1, text will be hard to read`}
            </p>
          ),
        )}
      </div>
    </div>
  );
}

const selectClass = "block w-full rounded-md bg-white py-1.5 pr-8 pl-2 text-sm ring-1 ring-zinc-300";

function FontControl({
  id,
  control,
  value,
  onWrite,
}: {
  id: string;
  control: Extract<TokenControl, { kind: "font" }>;
  value: string;
  onWrite: (value: string) => void;
}) {
  const first = parseFontFamilyList(value)[0] ?? "";
  const shipped = shippedFonts.find((font) => font.family.toLowerCase() === first.toLowerCase());
  const categories = control.categories.map((category) => ({
    category,
    fonts: shippedFonts.filter((font) => font.category === category),
  }));
  return (
    <select
      id={id}
      value={shipped?.family ?? ""}
      onChange={(event) => event.target.value && onWrite(fontStack(event.target.value))}
      className={selectClass}
    >
      {!shipped && (
        <option value="" disabled>
          {first ? `${first} (not shipped: viewers and exports fall back)` : "Pick a font"}
        </option>
      )}
      {categories.map(({ category, fonts }) => (
        <optgroup
          key={category}
          label={{ sans: "Sans serif", serif: "Serif", display: "Display", mono: "Monospace" }[category]}
        >
          {fonts.map((font) => (
            <option key={font.family} value={font.family}>
              {font.family}
            </option>
          ))}
        </optgroup>
      ))}
    </select>
  );
}

function RatioControl({ id, value, onWrite }: { id: string; value: string; onWrite: (value: string) => void }) {
  const known = typeScales.find((scale) => Number(scale.value) === Number(value));
  return (
    <select
      id={id}
      value={known?.value ?? value}
      onChange={(event) => onWrite(event.target.value)}
      className={selectClass}
    >
      {!known && <option value={value}>{value} (custom)</option>}
      {typeScales.map((scale) => (
        <option key={scale.value} value={scale.value}>
          {scale.label}
        </option>
      ))}
    </select>
  );
}

// A number in px, written as it is typed whenever it is a number within the range; what is typed stays in
// the field meanwhile (so "3" on the way to "32" is not thrown away).
function PxControl({
  id,
  control,
  value,
  onWrite,
}: {
  id: string;
  control: Extract<TokenControl, { kind: "px" }>;
  value: string;
  onWrite: (value: string) => void;
}) {
  const px = /^(-?[\d.]+)px$/.exec(value.trim())?.[1];
  const [draft, setDraft] = useState(px ?? "");
  // A value written elsewhere (the CSS tab, a brand, a revert) replaces the field's text.
  const [shown, setShown] = useState(px);
  if (shown !== px) {
    setShown(px);
    setDraft(px ?? "");
  }
  return (
    <div className="space-y-0.5">
      <input
        id={id}
        type="number"
        inputMode="decimal"
        min={control.min}
        max={control.max}
        step={control.step}
        value={draft}
        onChange={(event) => {
          setDraft(event.target.value);
          const n = Number(event.target.value);
          if (event.target.value !== "" && Number.isFinite(n) && n >= control.min && n <= control.max) {
            onWrite(`${n}px`);
          }
        }}
        className="block w-28 rounded-md bg-white px-2 py-1.5 text-sm ring-1 ring-zinc-300"
      />
      {px === undefined && <p className="text-xs text-zinc-500">Now {value}; a number here is written in px.</p>}
    </div>
  );
}

function TextControl({ id, value, onWrite }: { id: string; value: string; onWrite: (value: string) => void }) {
  const [draft, setDraft] = useState(value);
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    setDraft(value);
  }
  return (
    <input
      id={id}
      value={draft}
      onChange={(event) => setDraft(event.target.value)}
      onBlur={() => draft !== value && onWrite(draft)}
      onKeyDown={(event) => event.key === "Enter" && draft !== value && onWrite(draft)}
      className="block w-full rounded-md bg-white px-2 py-1.5 font-mono text-xs ring-1 ring-zinc-300"
    />
  );
}
