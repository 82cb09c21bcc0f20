"use client";

import { useEffect, useState } from "react";
import { deckAnalyticsAction } from "@/server/actions/editor-analytics";
import { Button, Notice, Tabs } from "@/components/ui";
import { Dialog } from "@/components/ui/dialog";
import type { DeckAnalytics } from "@/lib/analytics/schemas";

// The editor's Analytics panel: how the deck's public link and embeds are read. Views over time, how far
// views get (the per-slide drop-off) and the slides that hold attention longest, from get_deck_analytics
// (live: refreshed each time the panel opens or the range changes). Charts are plain SVG, no library.

type Range = "7" | "30" | "90";

const day = (offset: number) => new Date(Date.now() - offset * 86_400_000).toISOString().slice(0, 10);
const formatSeconds = (seconds: number) =>
  seconds >= 60 ? `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s` : `${seconds.toFixed(1)} s`;

/** The toolbar's "Analytics" button and its panel: one element to place in the editor. */
export function AnalyticsButton({ deckId, labels }: { deckId: string; labels: string[] }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" type="button" onClick={() => setOpen(true)}>
        Analytics
      </Button>
      <Dialog label="Analytics" open={open} onClose={() => setOpen(false)}>
        {open && <AnalyticsPanel deckId={deckId} labels={labels} />}
      </Dialog>
    </>
  );
}

function AnalyticsPanel({ deckId, labels }: { deckId: string; labels: string[] }) {
  const [range, setRange] = useState<Range>("30");
  const [data, setData] = useState<DeckAnalytics | null>(null);
  const [error, setError] = useState<string | null>(null);

  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    let live = true;
    void deckAnalyticsAction({ id: deckId, from: day(Number(range) - 1), to: day(0) }).then((result) => {
      if (!live) return;
      if (result.ok) {
        setData(result.value);
        setError(null);
      } else setError(result.error.message);
    });
    return () => {
      live = false;
    };
  }, [deckId, range, reloads]);

  const label = (slide: number) => labels[slide - 1] ?? `Slide ${slide}`;
  const holding = data
    ? [...data.perSlide]
        .filter((slide) => slide.reached > 0)
        .sort((a, b) => b.averageSeconds - a.averageSeconds)
        .slice(0, 3)
    : [];

  return (
    <div className="space-y-4 text-sm" data-testid="analytics-panel">
      <div className="flex items-center justify-between gap-2">
        <Tabs
          look="segment"
          items={[
            { value: "7", label: "7 days" },
            { value: "30", label: "30 days" },
            { value: "90", label: "90 days" },
          ]}
          value={range}
          onChange={setRange}
        />
        <Button variant="ghost" type="button" onClick={() => setReloads((count) => count + 1)}>
          Refresh
        </Button>
      </div>
      {error && <Notice>{error}</Notice>}
      {!data && !error && <p className="text-zinc-500">Loading…</p>}
      {data && (
        <>
          <dl className="grid grid-cols-3 gap-2">
            <Stat label="Views" value={String(data.totals.views)} />
            <Stat label="Unique viewers" value={String(data.totals.uniqueViewers)} />
            <Stat label="Average time" value={formatSeconds(data.totals.averageSeconds)} />
            <Stat label="Read to the end" value={`${Math.round(data.totals.completionRate * 100)}%`} />
            <Stat label="Share page / embed" value={`${data.totals.sharePageViews} / ${data.totals.embedViews}`} />
            <Stat label="Presenter sessions" value={String(data.totals.presenterSessions)} />
          </dl>

          <section aria-label="Views over time">
            <h3 className="mb-1 font-medium">Views over time</h3>
            <BarChart
              bars={data.perDay.map((entry) => ({
                value: entry.views,
                title: `${entry.day}: ${entry.views} views, ${entry.uniqueViewers} unique viewers`,
              }))}
            />
          </section>

          <section aria-label="Drop-off by slide">
            <h3 className="mb-1 font-medium">How far views get</h3>
            <BarChart
              bars={data.perSlide.map((slide) => ({
                value: slide.reached,
                title: `${slide.slide}. ${label(slide.slide)}: reached by ${slide.reached}, ${slide.exits} stopped here`,
              }))}
              tone="emerald"
            />
            <p className="mt-1 text-xs text-zinc-500">
              Views that reached each slide, slide 1 to {data.slides}; the fall between two bars is where views stopped.
            </p>
          </section>

          <section aria-label="Slides that hold attention longest">
            <h3 className="mb-1 font-medium">Holding attention longest</h3>
            {holding.length === 0 ? (
              <p className="text-zinc-500">
                No views in this range yet. Share the deck's public link to see how it is read.
              </p>
            ) : (
              <ol className="space-y-1">
                {holding.map((slide) => (
                  <li key={slide.slide} className="flex justify-between gap-2">
                    <span className="truncate">
                      {slide.slide}. {label(slide.slide)}
                    </span>
                    <span className="tabular-nums text-zinc-600">{formatSeconds(slide.averageSeconds)} per view</span>
                  </li>
                ))}
              </ol>
            )}
          </section>

          {data.referrers.length > 0 && (
            <section aria-label="Referrers">
              <h3 className="mb-1 font-medium">Came from</h3>
              <ul className="space-y-0.5">
                {data.referrers.slice(0, 5).map((referrer) => (
                  <li key={referrer.host} className="flex justify-between">
                    <span>{referrer.host}</span>
                    <span className="tabular-nums text-zinc-600">{referrer.views}</span>
                  </li>
                ))}
              </ul>
            </section>
          )}
          <p className="text-xs text-zinc-500">
            Counted without cookies or stored addresses; viewers who ask not to be tracked and bots are not counted.
          </p>
        </>
      )}
    </div>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-lg bg-zinc-50 p-2">
      <dt className="text-xs text-zinc-500">{label}</dt>
      <dd className="text-base font-semibold tabular-nums">{value}</dd>
    </div>
  );
}

function BarChart({ bars, tone = "zinc" }: { bars: { value: number; title: string }[]; tone?: "zinc" | "emerald" }) {
  const width = 440;
  const height = 96;
  const max = Math.max(1, ...bars.map((bar) => bar.value));
  const step = width / Math.max(1, bars.length);
  const gap = Math.min(2, step * 0.2);
  return (
    <svg
      viewBox={`0 0 ${width} ${height}`}
      className="h-24 w-full"
      role="img"
      aria-label={bars.map((bar) => bar.title).join("; ")}
    >
      <line x1={0} y1={height - 0.5} x2={width} y2={height - 0.5} className="stroke-zinc-200" />
      {bars.map((bar, index) => {
        const barHeight = (bar.value / max) * (height - 4);
        return (
          <rect
            key={index}
            x={index * step + gap / 2}
            y={height - barHeight}
            width={Math.max(1, step - gap)}
            height={barHeight}
            rx={1}
            className={tone === "emerald" ? "fill-emerald-500" : "fill-zinc-800"}
          >
            <title>{bar.title}</title>
          </rect>
        );
      })}
    </svg>
  );
}
