-- The Management API names users by number (SQL snippets' owner and updated_by: {id: number, username}),
-- as the hosted platform does; accounts here are uuids. Each user gets a stable number too.
ALTER TABLE users ADD COLUMN number bigint GENERATED ALWAYS AS IDENTITY UNIQUE;
