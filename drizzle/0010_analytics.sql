CREATE TABLE "analytics_daily_referrers" (
	"deck_id" uuid NOT NULL,
	"day" date NOT NULL,
	"host" text NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_daily_referrers_deck_id_day_host_pk" PRIMARY KEY("deck_id","day","host")
);
--> statement-breakpoint
CREATE TABLE "analytics_daily_slides" (
	"deck_id" uuid NOT NULL,
	"day" date NOT NULL,
	"slide" integer NOT NULL,
	"reached" integer DEFAULT 0 NOT NULL,
	"exits" integer DEFAULT 0 NOT NULL,
	"ms" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_daily_slides_deck_id_day_slide_pk" PRIMARY KEY("deck_id","day","slide")
);
--> statement-breakpoint
CREATE TABLE "analytics_daily" (
	"deck_id" uuid NOT NULL,
	"day" date NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"unique_viewers" integer DEFAULT 0 NOT NULL,
	"share_views" integer DEFAULT 0 NOT NULL,
	"embed_views" integer DEFAULT 0 NOT NULL,
	"presenter_sessions" integer DEFAULT 0 NOT NULL,
	"ms" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_daily_deck_id_day_pk" PRIMARY KEY("deck_id","day")
);
--> statement-breakpoint
CREATE TABLE "analytics_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"deck_id" uuid NOT NULL,
	"view_id" uuid NOT NULL,
	"source" text NOT NULL,
	"slide" integer NOT NULL,
	"ms" integer NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_views" (
	"deck_id" uuid NOT NULL,
	"view_id" uuid NOT NULL,
	"day" date NOT NULL,
	"visitor" text NOT NULL,
	"source" text NOT NULL,
	"referrer_host" text,
	"furthest_slide" integer NOT NULL,
	"ms" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "analytics_views_deck_id_view_id_pk" PRIMARY KEY("deck_id","view_id")
);
--> statement-breakpoint
CREATE TABLE "analytics_visitors" (
	"deck_id" uuid NOT NULL,
	"day" date NOT NULL,
	"visitor" text NOT NULL,
	CONSTRAINT "analytics_visitors_deck_id_day_visitor_pk" PRIMARY KEY("deck_id","day","visitor")
);
--> statement-breakpoint
ALTER TABLE "decks" ADD COLUMN "share_password_hash" text;--> statement-breakpoint
ALTER TABLE "decks" ADD COLUMN "share_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "analytics_daily_referrers" ADD CONSTRAINT "analytics_daily_referrers_deck_id_decks_id_fk" FOREIGN KEY ("deck_id") REFERENCES "public"."decks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_daily_slides" ADD CONSTRAINT "analytics_daily_slides_deck_id_decks_id_fk" FOREIGN KEY ("deck_id") REFERENCES "public"."decks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_daily" ADD CONSTRAINT "analytics_daily_deck_id_decks_id_fk" FOREIGN KEY ("deck_id") REFERENCES "public"."decks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_events" ADD CONSTRAINT "analytics_events_deck_id_decks_id_fk" FOREIGN KEY ("deck_id") REFERENCES "public"."decks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_views" ADD CONSTRAINT "analytics_views_deck_id_decks_id_fk" FOREIGN KEY ("deck_id") REFERENCES "public"."decks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_visitors" ADD CONSTRAINT "analytics_visitors_deck_id_decks_id_fk" FOREIGN KEY ("deck_id") REFERENCES "public"."decks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analytics_events_occurred_idx" ON "analytics_events" USING btree ("occurred_at");--> statement-breakpoint
CREATE INDEX "analytics_events_deck_occurred_idx" ON "analytics_events" USING btree ("deck_id","occurred_at");--> statement-breakpoint
CREATE INDEX "analytics_views_last_seen_idx" ON "analytics_views" USING btree ("last_seen_at");