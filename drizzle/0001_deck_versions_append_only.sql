-- Deck versions are immutable: no UPDATE ever, and a DELETE only as part of deleting the deck itself
-- (the ON DELETE CASCADE from decks runs after the deck row is gone, so the check below lets it through).
CREATE FUNCTION deck_versions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    RAISE EXCEPTION 'deck versions are immutable (deck %, version %)', OLD.deck_id, OLD.version;
  END IF;
  IF EXISTS (SELECT 1 FROM decks WHERE id = OLD.deck_id) THEN
    RAISE EXCEPTION 'a deck version is deleted only with its deck (deck %, version %)', OLD.deck_id, OLD.version;
  END IF;
  RETURN OLD;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER deck_versions_append_only
  BEFORE UPDATE OR DELETE ON deck_versions
  FOR EACH ROW EXECUTE FUNCTION deck_versions_append_only();
