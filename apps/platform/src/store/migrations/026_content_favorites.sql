-- Favorites are each member's own (issue 15): a snippet one member stars is not starred for the others.
-- The favorite column of content was one flag for everyone; the snippets starred so far become their owners' favorites.
CREATE TABLE content_favorites (
  content_id uuid NOT NULL REFERENCES content ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  inserted_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, content_id)
);
CREATE INDEX content_favorites_content ON content_favorites (content_id);

INSERT INTO content_favorites (content_id, user_id) SELECT id, owner_id FROM content WHERE favorite;
ALTER TABLE content DROP COLUMN favorite;
-- The stored content carried the flag too; the answer now says the caller's own.
UPDATE content SET content = content - 'favorite' WHERE content ? 'favorite';
