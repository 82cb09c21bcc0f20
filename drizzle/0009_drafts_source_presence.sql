CREATE TABLE "deck_presence" (
	"deck_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"last_seen" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deck_presence_deck_id_user_id_pk" PRIMARY KEY("deck_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "deck_drafts" ALTER COLUMN "compiled_js" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "deck_drafts" ADD COLUMN "source" text;--> statement-breakpoint
ALTER TABLE "deck_drafts" ADD COLUMN "typed_tokens_css" text;--> statement-breakpoint
ALTER TABLE "deck_drafts" ADD COLUMN "based_on_version" integer;--> statement-breakpoint
ALTER TABLE "deck_presence" ADD CONSTRAINT "deck_presence_deck_id_decks_id_fk" FOREIGN KEY ("deck_id") REFERENCES "public"."decks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deck_presence" ADD CONSTRAINT "deck_presence_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deck_presence" ADD CONSTRAINT "deck_presence_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deck_presence_org_deck_idx" ON "deck_presence" USING btree ("organization_id","deck_id");