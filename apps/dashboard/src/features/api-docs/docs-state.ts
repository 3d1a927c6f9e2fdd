export type SectionKey =
  | 'introduction'
  | 'user-management'
  | 'entities'
  | 'stored-procedures'
  | 'storage'
  | 'edge-functions'
  | 'realtime'

/** The active section, then optionally one item of it (a table, a function, a bucket, an edge function). */
export type ActivePage = [SectionKey] | [SectionKey, string]

export interface SectionDef {
  key: SectionKey
  label: string
}
