/**
 * Project routes whose features arrive in later releases. Each entry says plainly what will
 * live at the route; ComingLater renders it without any control that pretends to work.
 */
export interface LaterFeature {
  title: string
  description: string
  release: string
  items: string[]
}

export const LATER_FEATURES = {
  database: {
    title: 'Database',
    description:
      "An overview of what is inside this project's Postgres: its schemas and objects with their sizes, and forms to manage them. Tables and their rows are in the Table Editor today, and any object can be managed in the SQL Editor.",
    release: 'the database tools release',
    items: ['Functions, triggers, enumerated types and indexes, with forms to create and change them', 'Roles and publications', 'Database webhooks and scheduled jobs'],
  },
  vault: {
    title: 'Vault',
    description: 'Secrets stored encrypted inside the database and readable from SQL by the roles you allow.',
    release: 'the database tools release',
    items: ['Add, rotate and remove secrets', 'See which roles can read them'],
  },
} satisfies Record<string, LaterFeature>

export type LaterFeatureKey = keyof typeof LATER_FEATURES
