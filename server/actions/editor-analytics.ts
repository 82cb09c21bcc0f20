"use server";

import { defineAction } from "@/server/action";
import { getDeckAnalytics } from "@/lib/analytics/get-analytics";
import { analyticsQuery } from "@/lib/analytics/schemas";
import { deckParams } from "@/lib/decks/schemas";

// The editor's Analytics panel (components/app/editor/analytics-panel.tsx): get_deck_analytics with the
// operation's own query schema, for the deck's organization.
export const deckAnalyticsAction = defineAction({
  input: analyticsQuery.extend(deckParams.shape),
  run: (ctx, { id, ...range }) => getDeckAnalytics(ctx, id, range),
});
