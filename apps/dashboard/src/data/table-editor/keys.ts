export const tableEditorKeys = {
  all: (ref: string) => ['table-editor', ref] as const,
  schemas: (ref: string) => [...tableEditorKeys.all(ref), 'schemas'] as const,
  entities: (ref: string, schema: string) => [...tableEditorKeys.all(ref), 'entities', schema] as const,
  relation: (ref: string, id: number) => [...tableEditorKeys.all(ref), 'relation', id] as const,
  choices: (ref: string) => [...tableEditorKeys.all(ref), 'choices'] as const,
  realtimeTables: (ref: string) => [...tableEditorKeys.all(ref), 'realtime-tables'] as const,
  rows: (ref: string, id: number, sql: string) => [...tableEditorKeys.all(ref), 'rows', id, sql] as const,
  referenced: (ref: string, sql: string) => [...tableEditorKeys.all(ref), 'referenced', sql] as const,
}
