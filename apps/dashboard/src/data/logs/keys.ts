export const logKeys = {
  all: ['logs'] as const,
  query: (ref: string, sql: string, start: string, end: string) => [...logKeys.all, 'query', ref, sql, start, end] as const,
}
