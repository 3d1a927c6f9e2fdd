// Monaco ships no types for its language definitions; the SQL editor reads the pgsql one's built-in function list.
declare module 'monaco-editor/languages/definitions/pgsql/pgsql' {
  export const language: { keywords: string[]; builtinFunctions: string[] }
}
