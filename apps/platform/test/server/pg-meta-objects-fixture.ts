/**
 * The objects meta.test.ts lists through the Database pages' routes (functions, triggers, types, indexes,
 * publications, roles, policies, column privileges), built on its reference schema, and what postgres-meta
 * 0.99 answers differently on purpose (where it drops or misplaces facts), written as transforms of our answer.
 */

/** One of each kind, with what makes each field differ: built by the platform's superuser, as the reference schema is. */
export const OBJECTS_SQL = `
CREATE TABLE public.audit_log (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, source text NOT NULL, op text NOT NULL);
CREATE FUNCTION public.write_audit() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = ''
  AS $$BEGIN INSERT INTO public.audit_log (source, op) VALUES (TG_ARGV[0], TG_OP); RETURN NULL; END$$;
CREATE FUNCTION public.books_by(author bigint, max_count integer DEFAULT 10, OUT id integer, OUT title text) RETURNS SETOF record
  LANGUAGE sql STABLE ROWS 20 SET search_path = public, extensions SET statement_timeout = '5s'
  AS 'SELECT id, title FROM public.books WHERE author_id = author LIMIT max_count';
CREATE FUNCTION public.author_row(a_id bigint) RETURNS TABLE (name text, email varchar) LANGUAGE sql
  AS 'SELECT name, email FROM public.authors WHERE id = a_id';
CREATE FUNCTION public.mixed_args(OUT total integer, a integer, b integer DEFAULT 2) LANGUAGE sql AS 'SELECT a + b';

CREATE TRIGGER books_audit AFTER INSERT OR UPDATE ON public.books FOR EACH ROW WHEN (NEW.title IS DISTINCT FROM '')
  EXECUTE FUNCTION public.write_audit('books', 'it''s');
CREATE TRIGGER authors_audit BEFORE DELETE ON public.authors FOR EACH STATEMENT EXECUTE FUNCTION public.write_audit('authors');
ALTER TABLE public.authors DISABLE TRIGGER authors_audit;
CREATE TRIGGER author_books_insert INSTEAD OF INSERT OR UPDATE ON public.author_books FOR EACH ROW EXECUTE FUNCTION public.write_audit();
CREATE TRIGGER book_tags_truncate AFTER TRUNCATE ON public.book_tags FOR EACH STATEMENT EXECUTE FUNCTION public.write_audit('tags');

CREATE TYPE public.status AS ENUM ('draft', 'published');
ALTER TYPE public.status ADD VALUE 'review' BEFORE 'published';
COMMENT ON TYPE public.status IS 'Where a book stands';
CREATE TYPE public.address AS (street text, zip integer, city text);
ALTER TYPE public.address DROP ATTRIBUTE zip;
CREATE TYPE public.page_range AS RANGE (subtype = integer);

CREATE UNIQUE INDEX books_isbn_idx ON public.books (isbn) WHERE isbn IS NOT NULL;
CREATE INDEX book_tags_tag_book_idx ON public.book_tags (tag DESC, book_id);
COMMENT ON INDEX public.book_tags_tag_book_idx IS 'Tags first';
CREATE INDEX authors_lower_name_idx ON public.authors (lower(name));
CREATE INDEX books_id_author_idx ON public.books (id, author_id) INCLUDE (title);
CREATE INDEX authors_id_hash ON public.authors USING hash (id);

CREATE PUBLICATION library_changes FOR TABLE public.books, public.authors WITH (publish = 'insert, update');
CREATE PUBLICATION library_everything FOR ALL TABLES;
CREATE PUBLICATION library_nothing_yet;

CREATE ROLE reporter NOLOGIN NOINHERIT CONNECTION LIMIT 5 VALID UNTIL '2030-01-01 00:00:00+00' PASSWORD 'reporter-secret-1';
ALTER ROLE reporter SET statement_timeout = '5s';
ALTER ROLE reporter SET search_path = public, extensions;
CREATE ROLE "Night Editors" LOGIN CREATEDB PASSWORD 'night-secret-1';

ALTER TABLE public.books ENABLE ROW LEVEL SECURITY;
CREATE POLICY books_read ON public.books FOR SELECT TO anon, authenticated USING (published < CURRENT_DATE);
CREATE POLICY books_insert ON public.books AS RESTRICTIVE FOR INSERT TO reporter WITH CHECK (author_id > 0);
CREATE POLICY books_update ON public.books FOR UPDATE TO reporter, public USING (true);
CREATE POLICY authors_all ON public.authors USING (active) WITH CHECK (age >= 0);

GRANT SELECT (id, title), UPDATE (title) ON public.books TO reporter;
GRANT SELECT (name) ON public.authors TO "Night Editors" WITH GRANT OPTION;
GRANT REFERENCES (tag) ON public.book_tags TO reporter;
GRANT SELECT (author_id) ON public.author_stats TO reporter;
`

export const DROP_OBJECTS_SQL = `
DROP POLICY books_read ON public.books; DROP POLICY books_insert ON public.books; DROP POLICY books_update ON public.books;
DROP POLICY authors_all ON public.authors;
ALTER TABLE public.books DISABLE ROW LEVEL SECURITY;
REVOKE ALL (id, title) ON public.books FROM reporter;
REVOKE ALL (name) ON public.authors FROM "Night Editors" CASCADE;
REVOKE ALL (tag) ON public.book_tags FROM reporter;
REVOKE ALL (author_id) ON public.author_stats FROM reporter;
DROP ROLE reporter; DROP ROLE "Night Editors";
DROP PUBLICATION library_changes, library_everything, library_nothing_yet;
DROP INDEX public.books_isbn_idx, public.book_tags_tag_book_idx, public.authors_lower_name_idx, public.books_id_author_idx, public.authors_id_hash;
DROP TYPE public.status, public.address, public.page_range;
DROP TRIGGER books_audit ON public.books; DROP TRIGGER authors_audit ON public.authors;
DROP TRIGGER author_books_insert ON public.author_books; DROP TRIGGER book_tags_truncate ON public.book_tags;
DROP FUNCTION public.write_audit(), public.books_by(bigint, integer), public.author_row(bigint), public.mixed_args(integer, integer);
DROP TABLE public.audit_log;
`

type Row = Record<string, any>

const byId = (rows: Row[]) => [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
const byJson = (rows: unknown[]) => [...rows].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1))

/**
 * Both answers in one order: rows by id (column privileges by column id), and the lists whose order postgres-meta
 * does not promise (its jsonb_agg and array_agg have no ORDER BY) sorted: a function's arguments (ours are in
 * declaration order), a trigger's events, a publication's tables, a column's privileges.
 */
export function normalized(kind: string, rows: Row[]): Row[] {
  if (kind === 'columnPrivileges') {
    return [...rows].map((row): Row => ({ ...row, privileges: byJson(row.privileges) })).sort((a, b) => (a.column_id < b.column_id ? -1 : 1))
  }
  return byId(rows).map((row) => {
    if (kind === 'functions') return { ...row, args: byJson(row.args) }
    if (kind === 'triggers') return { ...row, events: [...row.events].sort() }
    if (kind === 'publications') return { ...row, tables: row.tables === null ? null : byJson(row.tables) }
    return row
  })
}

const INPUT_MODES = ['in', 'inout', 'variadic']

/**
 * What postgres-meta 0.99 answers for our rows where it drops or misplaces facts, so that everything else is
 * compared as it is:
 * - functions: it lines up the defaults of the input arguments with all arguments by position, so an out
 *   argument before an input one takes that input's flag (`mixed_args(OUT total, a, b DEFAULT 2)`);
 * - indexes: it pairs the index's column numbers with the table's key column numbers, keeping only index
 *   columns whose position is one of those, and leaves out an index where none is (on a table's fourth column
 *   alone, on an expression).
 */
export function asPostgresMetaAnswers(kind: string, rows: Row[]): Row[] {
  if (kind === 'functions') {
    return rows.map((fn) => {
      const inputs = fn.args.filter((arg: Row) => INPUT_MODES.includes(arg.mode)).length
      const defaults = fn.args.filter((arg: Row) => arg.has_default === true).length
      return { ...fn, args: fn.args.map((arg: Row, index: number) => ({ ...arg, has_default: index < inputs ? index >= inputs - defaults : null })) }
    })
  }
  if (kind === 'indexes') {
    return rows
      .map((index) => ({ ...index, index_attributes: index.index_attributes.filter((a: Row) => index.key_attributes.includes(a.attribute_number)) }))
      .filter((index) => index.index_attributes.length > 0)
  }
  return rows
}
