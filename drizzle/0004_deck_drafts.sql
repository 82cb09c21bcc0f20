CREATE TABLE "deck_drafts" (
	"deck_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"tokens_css" text NOT NULL,
	"compiled_js" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deck_drafts_deck_id_user_id_pk" PRIMARY KEY("deck_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "deck_drafts" ADD CONSTRAINT "deck_drafts_deck_id_decks_id_fk" FOREIGN KEY ("deck_id") REFERENCES "public"."decks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deck_drafts" ADD CONSTRAINT "deck_drafts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;