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
  sql: {
    title: 'SQL Editor',
    description:
      'Write and run SQL against this project, keep queries as snippets (private or shared with the project) and organise them in folders.',
    release: 'the SQL editor release',
    items: [
      'An editor that runs the statement under the cursor or the whole script',
      'Warnings before destructive statements',
      'Saved snippets and folders',
      'Results as a grid or a chart, with named parameters',
    ],
  },
  database: {
    title: 'Database',
    description:
      "Browse what is inside this project's Postgres: schemas, tables and their columns, relationships, functions, roles and extensions.",
    release: 'the database tools release',
    items: ['Table editor with a results grid', 'Columns, relationships and Row Level Security status', 'Functions, roles and extensions'],
  },
  storage: {
    title: 'Storage',
    description: 'Buckets and files kept next to your database, with rules on who may read and write them.',
    release: 'the storage release',
    items: ['Buckets, public or private', 'File browser with uploads and downloads', 'Size and MIME type limits per bucket'],
  },
  infrastructure: {
    title: 'Infrastructure',
    description:
      "Health of this project's Postgres instance and major version upgrades. Restart and pause are in the project's general settings; compute size is under Compute and Disk.",
    release: 'the upgrades release',
    items: ['Instance health and Postgres version', 'Major version upgrade with its progress', 'Disk usage and resource warnings'],
  },
  addons: {
    title: 'Add-ons',
    description: 'Extras enabled per project on the Pro plan, such as point-in-time recovery.',
    release: 'the backups release',
    items: ['Point-in-time recovery'],
  },
  vault: {
    title: 'Vault',
    description: 'Secrets stored encrypted inside the database and readable from SQL by the roles you allow.',
    release: 'the database tools release',
    items: ['Add, rotate and remove secrets', 'See which roles can read them'],
  },
  branches: {
    title: 'Branches',
    description:
      'Database branching: preview branches, each a Postgres instance of its own, with migrations from ./supabase run on every branch and on production.',
    release: 'the branching release',
    items: [
      'Enable branching (Pro plan, Postgres 15 or later)',
      'A production branch (main by default) and preview branches',
      'Preview branches billed per hour until removed',
    ],
  },
  backupsPitr: {
    title: 'Point in time recovery',
    description: 'Restore this project to any moment within the retention window. Needs the point-in-time recovery add-on.',
    release: 'the backups release',
    items: ['Choose a date and time to restore to', 'Retention window of the add-on'],
  },
  reports: {
    title: 'Reports',
    description: 'Charts of database activity and API usage built from logs, and reports of your own from saved queries.',
    release: 'the reports release',
    items: ['Database and API usage charts', 'Custom reports from saved queries'],
  },
  api: {
    title: 'API settings',
    description: "This project's API keys, its URL and its JWT secret.",
    release: 'the API keys release',
    items: [
      'Project API keys: anon (public) and service_role (secret, bypasses Row Level Security)',
      'Project configuration: URL and JWT secret',
      'Turning legacy JWT-based keys off and on',
      'When each key was last used',
    ],
  },
} satisfies Record<string, LaterFeature>

export type LaterFeatureKey = keyof typeof LATER_FEATURES
