// The authoring brief served by GET /instructions and given to the AI generator. The component and
// token sections are rendered from the vocabulary so the brief can never describe a component the
// compiler refuses or miss one the player renders; the prose around them is the craft advice.

import { findingKinds } from "@/lib/contract/check";
import { CANVAS, FIT_FLOORS, FIT_GROW_MAX } from "@/lib/contract/deck";
import { iconNames } from "@/lib/contract/prop-values";
import { vocabulary, type ComponentSpec } from "@/lib/source/component-specs";
import { defaultTokensCss, themeTokens } from "@/lib/source/theme-tokens";

const SOURCE_LIMIT = "1 MB";
const TOKENS_CSS_LIMIT = "64 KB";
// Slide padding is 12 spacing units on each side (see --space).
const SLIDE_PADDING_UNITS = 12;

/**
 * A complete slides deck that compiles; the brief shows it and tests hold it to that. It uses most of
 * the vocabulary the way the advice above it recommends, so models imitate good habits, not just syntax.
 */
export const exampleDeckSource = `import {
  Deck, Slide, Title, Heading, Text, Quote, Stat, Logo, Diagram,
  Columns, Stack, Grid, Box, Icon, Table, Chart, Timeline, Steps,
} from "@deckhand/player";

const months = ["Jul", "Aug", "Sep", "Oct"];

const changes = [
  { icon: "layers", title: "Start from a template", text: "New teams land in a finished deck, not a blank page." },
  { icon: "sparkles", title: "Brand in one step", text: "Paste a website; colours and fonts follow." },
  { icon: "users", title: "Invite while editing", text: "Teammates join from the deck they will work on." },
];

export default function OnboardingReview() {
  return (
    <Deck title="Onboarding, halved: Q3 product review">
      <Slide
        label="Cover"
        layout="center"
        background="primary"
        notes="Welcome. In ten minutes: what we changed in onboarding this quarter, what it did, and one decision we need today."
      >
        <Logo size="md" />
        <Title kicker="Q3 product review" subtitle="What we changed, what it did, what comes next" align="center">
          Onboarding, halved
        </Title>
      </Slide>

      <Slide
        label="The problem"
        notes="Half of the teams that signed up in Q2 never made a first deck. Most of them stalled at brand import, before seeing a single slide."
      >
        <Heading kicker="Where we started">Half of new teams never reached a first deck</Heading>
        <Columns ratio="3:2" gap="xl" align="center">
          <Diagram title="Setup in Q2: eleven steps on three screens">{\`flowchart LR
  signup[Sign up] --> brand[Brand import] --> editor[Editor] --> deck[First deck]
  brand -. 52% stall here .-> gone((Never return))\`}</Diagram>
          <Stat value="52%" label="of new teams dropped before a first deck" detail="Q2, 4,180 sign-ups" tone="accent" />
        </Columns>
      </Slide>

      <Slide label="What we changed" notes="Three changes, each aimed at one stall point from the funnel. All three shipped by mid-August.">
        <Heading>Three changes, shipped in six weeks</Heading>
        <Grid columns={3} gap="lg">
          {changes.map((change) => (
            <Box key={change.title} tone="surface" padding="lg">
              <Icon name={change.icon} size="lg" />
              <Heading level={3}>{change.title}</Heading>
              <Text tone="muted">{change.text}</Text>
            </Box>
          ))}
        </Grid>
      </Slide>

      <Slide label="New setup" notes="The new path has four steps, and the first slide appears after the second one.">
        <Heading>Four steps from sign-up to a shared deck</Heading>
        <Steps
          items={[
            { title: "Sign up", detail: "Email or Google, no card" },
            { title: "Paste your website", detail: "Colours, fonts and logo follow" },
            { title: "Pick a template", detail: "A finished deck, not a blank page" },
            { title: "Invite a teammate", detail: "From the deck itself" },
          ]}
        />
      </Slide>

      <Slide label="Results" notes="The median fell every month, and the slowest teams gained the most. October is the first full month with all three changes live.">
        <Heading>Time to a first deck fell from 26 to 12 minutes</Heading>
        <Columns ratio="2:1" gap="xl" align="center">
          <Chart
            type="line"
            unit=" min"
            title="Minutes to a first deck"
            labels={months}
            series={[
              { name: "Median team", values: [26, 21, 15, 12] },
              { name: "Slowest quarter", values: [58, 44, 30, 22] },
            ]}
          />
          <Stack gap="lg">
            <Stat value="-54%" label="time to a first deck" />
            <Stat value="71%" label="of new teams reach a first deck" detail="up from 48% in Q2" tone="secondary" />
          </Stack>
        </Columns>
      </Slide>

      <Slide label="Customer voice" layout="center" background="surface" notes="Lumen Labs signed up on a Monday and presented to their board that Thursday.">
        <Quote by="Priya Raman" role="Head of Marketing, Lumen Labs">
          We had a board deck in front of our CEO before the coffee went cold.
        </Quote>
      </Slide>

      <Slide label="By segment" notes="Every segment is ahead of plan; enterprise moved the most and is highlighted.">
        <Heading>Activation is ahead of plan in every segment</Heading>
        <Table
          columns={["Segment", "Q2", "Q3", "Plan"]}
          rows={[
            ["Startups", "51%", "74%", "65%"],
            ["Mid-market", "47%", "70%", "60%"],
            ["Enterprise", "38%", "63%", "55%"],
          ]}
          highlight={2}
        />
        <Text size="sm" tone="muted">Activation: share of new teams that publish or export a deck within 7 days.</Text>
      </Slide>

      <Slide label="Next quarter" notes="Q4 turns a first deck into a shared one: teams that invite a colleague in week one retain twice as well.">
        <Columns ratio="3:2" gap="xl" align="center">
          <Stack gap="lg">
            <Heading kicker="Q4 plan">Next: make the first deck a shared one</Heading>
            <Timeline
              direction="vertical"
              highlight={0}
              items={[
                { date: "October", title: "Invite teammates from the first deck" },
                { date: "November", title: "Brand import in under a minute" },
                { date: "December", title: "Templates for the five most common decks" },
              ]}
            />
          </Stack>
          <Box tone="primary" padding="lg" align="center">
            <Icon name="trending-up" size="xl" tone="default" />
            <Stat value="2x" label="retention when a colleague joins in week one" tone="default" align="center" />
          </Box>
        </Columns>
      </Slide>

      <Slide label="The ask" layout="center" background="accent" notes="The decision: two engineers from platform for Q4. Everything else is already funded.">
        <Title subtitle="Two engineers for Q4 to ship team onboarding" align="center">
          One decision today
        </Title>
      </Slide>
    </Deck>
  );
}
`;

/** The outline the example compiles to; kept beside it so the two are edited together. */
export const exampleDeckOutline: readonly string[] = [
  "Cover",
  "The problem",
  "What we changed",
  "New setup",
  "Results",
  "Customer voice",
  "By segment",
  "Next quarter",
  "The ask",
];

let cachedBrief: string | undefined;

export function buildAuthoringBrief(): string {
  cachedBrief ??= renderBrief();
  return cachedBrief;
}

function renderBrief(): string {
  const sections = [
    renderIntroduction(),
    renderCanvas(),
    renderCheck(),
    renderModuleRules(),
    renderComponents(),
    renderIcons(),
    renderTheme(),
    renderWebpageDecks(),
    renderExample(),
  ];
  return `${sections.join("\n\n")}\n`;
}

function renderIntroduction(): string {
  return `DECKHAND AUTHORING BRIEF

A Deckhand deck is a deck-tsx module: one TypeScript + JSX (TSX) file that imports components from "@deckhand/player" and default-exports a function returning a single <Deck>. The server compiles it with esbuild and stores the source, the compiled JavaScript and the outline as a new version; the player renders it in the viewer, the editor preview and PDF/PPTX exports. The look comes from a separate theme, tokensCss: CSS custom properties that every component reads.

Write the whole module every time: a write replaces the previous source entirely. A module that does not compile is refused with the compiler's message (line:column included) and nothing is saved; fix exactly what it names and send it again.`;
}

function renderCanvas(): string {
  const padding = SLIDE_PADDING_UNITS * readPixels("--space");
  return `THE CANVAS AND DENSITY

Slides are drawn on a fixed ${CANVAS.width}x${CANVAS.height} canvas, scaled to fit the screen, PDF page or PPTX slide; nothing scrolls. A "content" slide keeps ${padding}px of padding on every side, leaving about ${CANVAS.width - 2 * padding}x${CANVAS.height - 2 * padding}px.

Type sizes on the canvas with the default theme: ${renderTypeLadder()}. Components choose sizes; you choose components and the size/level props.

The type is set for a room, not a laptop: the canvas is a 13.33-inch slide, so 2px on it is 1 pt, and body text at 48px is 24 pt, what a person at the back of a meeting room can read; code is at least 18 pt and labels, kickers and captions at least 14 pt. Headings stand about 1.7 times the body (a ratio of 1.2 per step) so the takeaway is read first. Fitting never takes body text below 18 pt; a slide that would need it is reported by the check (small-text, overflow): split it instead. A content slide with little on it is not left half empty: its body (not its heading) is drawn up to ${Math.round((FIT_GROW_MAX - 1) * 100)}% larger until it fills about four fifths of the height under the heading, and the check reports a band of more than a third of the slide left empty.

How the player lays out a slide (so you do not have to):
- A "content" slide is a heading and a body. A leading <Heading> (or <Title>) stays at the top; the body, everything after it, is centred vertically in the height left under the heading, so a short body sits in the middle of the slide, not glued under the heading. A slide without a leading heading centres all of its content, and a <Title> alone on a content slide sits in the middle of its height (a title slide); a <Heading> alone is a slide with nothing to say (the deck check warns).
- A <Chart>, <Image> or <Diagram> in the body, or a <Columns>, <Grid>, <Stack> or <Box> holding one, grows to fill the height under the heading, and the chart, image or diagram fills its column (a diagram keeps its shape, centred). Give a chart a column of its own rather than sizing it.
- Columns are as tall as the tallest one by default (align "stretch"), and cells of a <Grid> row share one height, so Boxes side by side come out even. align "start" | "center" | "end" keeps each column at its own height.
- "center" slides (covers, section breaks, statements) centre everything on both axes.
- A <Frame x y w h> (px of the canvas) sits exactly where its numbers put it, over the slide's flow and outside its padding: decks imported from PowerPoint as they look are Frames of Text, Bullets, Image, Table and Chart. Edit such a slide by changing a Frame's content or numbers and keep its text within its frame (what does not fit shrinks with the slide, then is reported as overflowing the frame); write new slides in the flow, without Frames.
- Arabic and Hebrew run right to left by themselves: every text element takes its direction from its own first letters (an English word inside an Arabic line keeps its place), a slide whose text starts in Arabic or Hebrew lays out from the right (text, bullet markers, columns, table columns), and PDF and PPTX exports keep it. Leave align unset for this; align "left" and "right" are physical and override it.
- Type shrinks to fit before anything overflows: a slide whose content is too tall is scaled down as a whole (down to ${Math.round(FIT_FLOORS.slide * 100)}% of its sizes, so the hierarchy holds), and a Title, Heading or Stat value whose longest word is wider than its box is made smaller (down to ${Math.round(FIT_FLOORS.word * 100)}%, a Stat value to ${Math.round(FIT_FLOORS.stat * 100)}%, side-by-side Stats together so a row of numbers stays one size). A word still too wide at that size breaks onto the next line. Content that does not fit even then runs past the padding and is reported as overflowing, so keep to the density rules below instead of counting on the shrinking: fitted slides are denser and smaller than designed.

Density rules that make decks good:
- One idea per slide. The heading states the takeaway as a sentence ("Churn halved after the pricing change"), not a topic ("Churn").
- At most about 40 words of body text per slide; at most 5 bullets of at most 10 words each. Put the rest in the slide's notes.
- One focal element per slide: a Stat, a Chart, a Quote or a short statement. Use Columns for text-plus-visual, Grid for 3-6 parallel items.
- Pick the component that matches the content's shape: dated milestones (a roadmap, a history) are a <Timeline>, an ordered process is <Steps>, not Bullets with dates or numbers typed in; comparing a few series over the same categories is one <Chart> with \`series\` (grouped, or stacked for parts of a total) rather than several charts.
- A process that branches, a system's parts and how they connect, or who calls whom is a <Diagram> in Mermaid syntax; keep it to about 10 nodes with labels of a few words and give it the body of the slide. A straight sequence of steps is <Steps>, not a diagram.
- The brand's logo is <Logo>, never an <Image>: once on the cover ("md" or "lg", inline) and, if wanted, in the same corner of each content slide (placement "top-right", size "sm"). It draws the deck's brand logo, and nothing when the deck has none.
- At most one strong fill (background or Box tone "primary"/"accent") per slide; let most slides sit on the default background.
- Open with a cover (layout "center", a Title) and close with a clear ending: the decision, ask or next step.
- Aim for 6-12 slides unless the brief asks otherwise. Charts and tables carry only the numbers the point needs.`;
}

function renderTypeLadder(): string {
  const base = readPixels("--type-base");
  const scale = Number.parseFloat(readTokenDefault("--type-scale"));
  const size = (steps: number) => `${Math.round(base * scale ** steps)}px`;
  return [
    `Text sm ${size(-1)}`,
    `Text md ${size(0)}`,
    `Text lg ${size(1)}`,
    `Heading 3 ${size(2)}`,
    `Heading 2 ${size(3)}`,
    `Heading 1 ${size(4)}`,
    `Title ${size(5)}`,
  ].join(", ");
}

function renderCheck(): string {
  const kinds = Object.entries(findingKinds).map(([kind, doc]) => `- ${kind}: ${doc}.`);
  return `THE DECK CHECK

check_deck (GET /api/v1/decks/{id}/check) draws a version exactly as the PDF export does and reports, slide by slide, what a viewer would see broken and where the deck breaks the rules above. Each finding has a stable kind, a severity, the slide's number and label and a message saying what to do. Run it after every write and fix each "error"; "warning"s are worth fixing. Generation with a model runs it itself and sends its errors back for repair.

After a write, look at what you made before going on: run check_deck on the new version, and look at the slides it names (and any slide you are unsure of) with get_slide_image (GET /api/v1/decks/{id}/slides/{n}/image), a picture drawn exactly as the export draws it. Fix one slide at a time: change only the slide a finding names (by its number or label) with replace_slide (PUT /api/v1/decks/{id}/slides/{n}, one <Slide> element; list_slides gives each slide's TSX), leave every other slide exactly as it was, and check again until no "error" is left.

${kinds.join("\n")}`;
}

function renderModuleRules(): string {
  return `MODULE RULES (checked by the compiler)

- Import only from "@deckhand/player", by name: import { Deck, Slide, Heading } from "@deckhand/player". Any other import ("react", relative files, URLs, "@deckhand/player/…" subpaths) is refused, and so is a name that is not in the component list below. JSX needs no React import.
- TypeScript types may be imported with "import type"; they disappear at compile time.
- Default-export the deck: export default function MyDeck() { return <Deck>…</Deck>; }. A module without a default export is refused.
- No dynamic import(), no require(), no import.meta. Everything the deck needs is written in the module itself: helper components, data arrays, .map() over data are all fine.
- Every <Slide> gets a short, unique label="…" written as a string literal (or a template literal without \${}). The labels, in source order, become the deck's outline, which people and edit requests use to refer to slides ("rewrite 'Results'"). A missing or computed label shows as "Slide N". Write each <Slide> directly in the module rather than generating slides with .map() or hiding them in a wrapper component, so the outline lists every slide.
- A slides deck needs at least one <Slide>; a webpage deck needs at least one <Beat>.
- Use only the components and props listed below. Plain HTML elements are not styled by the theme: the only ones to use are <strong>, <em>, <code>, <s> and <br /> inside text. There is no style or className prop.
- Limits: source at most ${SOURCE_LIMIT}; tokensCss at most ${TOKENS_CSS_LIMIT}.
- Speaker notes go in <Slide notes="…">: what the presenter says, in full sentences. They appear in presenter view and in PPTX notes, never on the slide. Put detail there instead of cramming the slide.`;
}

function renderComponents(): string {
  const groups: Array<{ group: ComponentSpec["group"]; title: string }> = [
    { group: "structure", title: "Structure" },
    { group: "layout", title: "Layout" },
    { group: "type", title: "Type" },
    { group: "media", title: "Media" },
    { group: "data", title: "Data" },
  ];
  const rendered = groups.map(({ group, title }) => {
    const components = vocabulary.filter((component) => component.group === group).map(renderComponent);
    return `${title}\n\n${components.join("\n\n")}`;
  });
  return `COMPONENTS (everything "@deckhand/player" exports)\n\nProps marked "?" are optional. Unknown props are ignored by the player.\n\n${rendered.join("\n\n")}`;
}

function renderComponent(component: ComponentSpec): string {
  const lines = [`<${component.name}> ${component.doc}`];
  for (const prop of component.props) {
    lines.push(`  ${prop.name}${prop.required ? "" : "?"}: ${prop.type} (${prop.doc})`);
  }
  lines.push(component.children ? `  children: ${component.children}` : "  children: none (self-closing)");
  if (component.example) lines.push(`  example: ${component.example}`);
  return lines.join("\n");
}

function renderIcons(): string {
  return `ICONS (values for <Icon name>)\n\n${iconNames.join(", ")}`;
}

function renderTheme(): string {
  const tokens = themeTokens.map((token) => `  ${token.name}: ${token.doc} Default: ${token.default}`);
  return `THEME TOKENS (tokensCss)

Colour and type come only from the theme. Components apply the tokens themselves through props such as tone and background, so the module never contains a colour, font name or pixel size. To change the look, change tokensCss. Where a value is needed inside tokensCss, refer to another token with var(), e.g. --color-on-accent: var(--color-bg).

${tokens.join("\n")}

tokensCss format: optional @import rules for web fonts, each an https URL (e.g. @import url("https://fonts.googleapis.com/css2?family=Inter:wght@400;600;700&display=swap");), followed by exactly one :root { … } block that declares only custom properties (--name: value;). Nothing else is accepted: no other selectors, at-rules or normal properties, and no "<" anywhere. Tokens you leave out keep their defaults. Keep text readable: --color-text on --color-bg and --color-on-primary on --color-primary need strong contrast (4.5:1 or more). Fonts other than the defaults may not render identically in exports.

The default theme:

${defaultTokensCss}`;
}

function renderWebpageDecks(): string {
  return `WEBPAGE DECKS

A deck of format "webpage" is a scrolling page instead of paged slides. It uses <Beat> where a slides deck uses <Slide>: each Beat is one section of the page, spans the width and grows with its content (height="screen" for a hero). Beats have labels, which form the outline, and no speaker notes. Everything else (components, tokens, module rules) is the same; density can be a little higher, but keep one idea per beat.

  <Deck title="Deckhand">
    <Beat label="Hero" height="screen" layout="center" background="primary">
      <Title subtitle="Write decks as code. Share them as links.">Deckhand</Title>
    </Beat>
    <Beat label="How it works">…</Beat>
  </Deck>`;
}

function renderExample(): string {
  return `EXAMPLE (a complete slides deck that compiles)

${exampleDeckSource}`;
}

function readTokenDefault(name: string): string {
  const token = themeTokens.find((candidate) => candidate.name === name);
  if (!token) throw new Error(`Theme token ${name} is missing from the vocabulary`);
  return token.default;
}

function readPixels(name: string): number {
  return Number.parseFloat(readTokenDefault(name));
}
