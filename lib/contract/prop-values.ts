// The fixed words of the deck vocabulary: the component names, the icon names and every prop value
// list. The player normalises props with these lists (anything outside one falls back to the default)
// and lib/source/component-specs.ts writes the brief's prop types from them, so a value added here is both
// drawn and documented.

/** What `@deckhand/player` exports to a deck, in the order the brief lists them. */
export const componentNames = [
  "Deck",
  "Slide",
  "Beat",
  "Columns",
  "Stack",
  "Grid",
  "Box",
  "Title",
  "Heading",
  "Text",
  "Bullets",
  "Quote",
  "Code",
  "Link",
  "Formula",
  "Image",
  "Icon",
  "Logo",
  "Stat",
  "Table",
  "Chart",
  "Timeline",
  "Steps",
  "Diagram",
  "Frame",
] as const;
export type ComponentName = (typeof componentNames)[number];

// Shared by several components: the same word means the same thing on each of them.
export const gaps = ["none", "sm", "md", "lg", "xl"] as const;
export type Gap = (typeof gaps)[number];
export const aligns = ["left", "center", "right"] as const;
export type Align = (typeof aligns)[number];
export const sizes = ["sm", "md", "lg"] as const;
export type Size = (typeof sizes)[number];
export const textTones = ["default", "muted", "primary", "secondary", "accent"] as const;
export type TextTone = (typeof textTones)[number];

// Slide and Beat.
export const sectionLayouts = ["content", "center", "full-bleed"] as const;
export type SectionLayout = (typeof sectionLayouts)[number];
export const sectionBackgrounds = ["default", "surface", "primary", "accent", "invert"] as const;
export type SectionBackground = (typeof sectionBackgrounds)[number];
// A slide's image beside its content (Marp's `bg left`/`bg right`, Slidev's image-left/right), not behind it.
export const imageSides = ["left", "right"] as const;
export type ImageSide = (typeof imageSides)[number];
export const beatHeights = ["auto", "screen"] as const;
export type BeatHeight = (typeof beatHeights)[number];

// Layout.
export const columnAligns = ["start", "center", "end", "stretch"] as const;
export type ColumnAlign = (typeof columnAligns)[number];
export const stackAligns = ["start", "center", "end"] as const;
export type StackAlign = (typeof stackAligns)[number];
export const stackJustifies = ["start", "center", "end", "between"] as const;
export type StackJustify = (typeof stackJustifies)[number];
export const gridColumns = [2, 3, 4] as const;
export type GridColumns = (typeof gridColumns)[number];
export const boxTones = ["surface", "primary", "accent", "outline"] as const;
export type BoxTone = (typeof boxTones)[number];
export const boxPaddings = ["sm", "md", "lg"] as const;
export type BoxPadding = (typeof boxPaddings)[number];

// Type.
export const headingLevels = [1, 2, 3] as const;
export type HeadingLevel = (typeof headingLevels)[number];
export const textWeights = ["regular", "bold"] as const;
export type TextWeight = (typeof textWeights)[number];
export const bulletMarkers = ["dot", "number", "check", "arrow"] as const;
export type BulletMarker = (typeof bulletMarkers)[number];
export const quoteSizes = ["md", "lg"] as const;
export type QuoteSize = (typeof quoteSizes)[number];

// Media.
export const imageFits = ["cover", "contain"] as const;
export type ImageFit = (typeof imageFits)[number];
export const imageFocuses = ["center", "top", "bottom", "left", "right"] as const;
export type ImageFocus = (typeof imageFocuses)[number];
export const iconSizes = ["sm", "md", "lg", "xl"] as const;
export type IconSize = (typeof iconSizes)[number];
// Logo: in the flow like any element, or pinned to a corner of the slide (in its padding, out of the flow).
export const logoPlacements = ["inline", "top-left", "top-right", "bottom-left", "bottom-right"] as const;
export type LogoPlacement = (typeof logoPlacements)[number];
// Logo: as designed (on a plate of the page colour over a strong fill, "auto"), or in the text colour.
export const logoTones = ["auto", "original", "mono"] as const;
export type LogoTone = (typeof logoTones)[number];

// Data.
export const statTones = ["primary", "secondary", "accent", "default"] as const;
export type StatTone = (typeof statTones)[number];
export const chartTypes = ["bar", "line", "pie"] as const;
export type ChartType = (typeof chartTypes)[number];
// Timeline and Steps: the way the sequence runs across the slide.
export const flowDirections = ["horizontal", "vertical"] as const;
export type FlowDirection = (typeof flowDirections)[number];

// Frame: a positioned box's outline and where its content sits in its height.
export const frameShapes = ["rect", "rounded", "ellipse", "triangle", "right-triangle"] as const;
export type FrameShape = (typeof frameShapes)[number];
export const frameVerticalAligns = ["top", "middle", "bottom"] as const;
export type FrameVerticalAlign = (typeof frameVerticalAligns)[number];

/** The icons the player draws (locally, no network); the brief lists them for `<Icon name>`. */
export const iconNames = [
  "arrow-right",
  "arrow-up-right",
  "arrow-down-right",
  "trending-up",
  "trending-down",
  "check",
  "check-circle",
  "x",
  "alert-triangle",
  "info",
  "help-circle",
  "star",
  "heart",
  "zap",
  "rocket",
  "target",
  "flag",
  "trophy",
  "lightbulb",
  "sparkles",
  "users",
  "user",
  "building",
  "globe",
  "map-pin",
  "calendar",
  "clock",
  "mail",
  "message",
  "phone",
  "lock",
  "shield",
  "key",
  "settings",
  "code",
  "database",
  "cloud",
  "server",
  "cpu",
  "layers",
  "puzzle",
  "bar-chart",
  "pie-chart",
  "line-chart",
  "dollar",
  "wallet",
  "shopping-cart",
  "package",
  "truck",
  "leaf",
  "book",
  "graduation-cap",
  "search",
  "eye",
  "link",
  "download",
  "upload",
  "refresh",
  "play",
  "quote",
] as const;
export type IconName = (typeof iconNames)[number];
