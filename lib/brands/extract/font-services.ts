// Font services a page loads faces from. Their stylesheet URLs name the families (and often the
// weights), which is evidence of the brand's type even when the stylesheet itself is never fetched.

const fontServiceHosts = [
  "fonts.googleapis.com",
  "fonts.bunny.net",
  "fonts.cdnfonts.com",
  "use.typekit.net",
  "p.typekit.net",
  "api.fontshare.com",
  "fast.fonts.net",
  "cloud.typography.com",
  "rsms.me",
  "fonts.xz.style",
];

export type FontServiceFamily = { family: string; weights: number[] };

export function isFontServiceUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const host = parsed.hostname.toLowerCase();
  if (fontServiceHosts.some((known) => host === known || host.endsWith(`.${known}`))) return true;
  // Font CDNs name themselves (fonts.example-cdn.com). A site's own fonts.css is not one: it is fetched
  // like any stylesheet so its @font-face rules are read.
  return host.split(".")[0] === "fonts";
}

/**
 * Families (and weights) in a Google-Fonts-style URL: css2's `family=Playfair+Display:wght@400;700`
 * (also `ital,wght@0,400;1,700`) and the older css's `family=Roboto:400,700italic|Open+Sans`.
 * Bunny Fonts uses the same grammar.
 */
export function parseFontServiceUrl(url: string): FontServiceFamily[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const families: FontServiceFamily[] = [];
  for (const param of parsed.searchParams.getAll("family")) {
    for (const entry of param.split("|")) {
      const [rawName, spec = ""] = splitOnce(entry, ":");
      const family = rawName.replace(/\+/g, " ").trim().replace(/\s+/g, " ");
      if (!family) continue;
      families.push({ family, weights: readWeights(spec) });
    }
  }
  return families;
}

function splitOnce(text: string, separator: string): [string, string?] {
  const index = text.indexOf(separator);
  return index < 0 ? [text] : [text.slice(0, index), text.slice(index + 1)];
}

function readWeights(spec: string): number[] {
  if (!spec) return [];
  const weights = new Set<number>();
  const at = spec.indexOf("@");
  if (at >= 0) {
    // css2: axes before "@", tuples after; the weight is the tuple member at the wght axis' index.
    const axes = spec.slice(0, at).split(",");
    const weightIndex = axes.indexOf("wght");
    if (weightIndex < 0) return [];
    for (const tuple of spec.slice(at + 1).split(";")) {
      const value = tuple.split(",")[weightIndex] ?? "";
      for (const bound of value.split("..")) addWeight(weights, bound);
    }
  } else {
    // css v1: "400,700italic,900i".
    for (const variant of spec.split(",")) addWeight(weights, variant.replace(/(italic|i)$/, ""));
  }
  return [...weights].sort((a, b) => a - b);
}

function addWeight(weights: Set<number>, text: string): void {
  const value = Number(text.trim());
  if (Number.isInteger(value) && value >= 1 && value <= 1000) weights.add(value);
}
