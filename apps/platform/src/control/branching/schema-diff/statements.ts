import type { CatalogObject, CatalogObjects } from './catalog-objects.js'
import type { ObjectChange } from './three-way.js'

/**
 * The phases the comparer's SQL runs in, in order: drops first, from what depends on others to what
 * others depend on, then creations and changes the other way round (schemas, types, tables, columns,
 * constraints, indexes, views, functions, triggers, policies, grants, publications). Functions come in
 * two groups: those that read no table's row type (before the tables, so column defaults and checks can
 * call them; their bodies are not checked then, see plan.ts) and the rest (after the tables).
 * The phases are the default order only: plan.ts moves a statement later when the catalog says its object
 * needs another one made later (a function reading a view, a table whose default calls such a function).
 */
export const PHASES = [
  'drop-publications',
  'drop-policies',
  'drop-triggers',
  'drop-views',
  'drop-indexes',
  'drop-foreign-keys',
  'drop-constraints',
  'drop-columns',
  'drop-tables',
  'drop-functions',
  'drop-sequences',
  'drop-domains',
  'drop-types',
  'drop-schemas',
  'drop-extensions',
  'extensions',
  'schemas',
  'types',
  'domains',
  'sequences',
  'functions',
  'tables',
  'columns',
  'late-functions',
  'sequence-ownership',
  'constraints',
  'foreign-keys',
  'indexes',
  'views',
  'view-indexes',
  'triggers',
  'row-security',
  'policies',
  'ownership',
  'grants',
  'column-grants',
  'routine-grants',
  'publications',
  'comments',
] as const

export type Phase = (typeof PHASES)[number]

export interface Statement {
  phase: Phase
  sql: string
  /** Order inside the phase (views by creation order); default 0. */
  order?: number
  /** The key of the object the statement makes or changes; by default the object of the change that wrote it. */
  subject?: string
}

export interface EmitContext {
  /** Keys of objects the SQL creates. */
  created: ReadonlySet<string>
  /** Keys of objects the SQL drops (or drops to make again). */
  dropped: ReadonlySet<string>
  branch: CatalogObjects
  /** Changes the comparer cannot write as SQL, in words. */
  unsupported: string[]
  /** Branch changes to objects of kinds the comparer does not compare (operators...), in words. */
  notCompared: string[]
  /** The role the SQL runs as (the owner of what it makes). */
  creator: string
}

export type Emitter<D> = (from: CatalogObject<D> | undefined, to: CatalogObject<D> | undefined, context: EmitContext) => Statement[]

export const definitionOf = <D>(object: CatalogObject | undefined): D | undefined => object?.definition as D | undefined

/** A drop that its owner's drop makes needless (a column of a dropped table). */
export const goesWithOwner = (object: CatalogObject | undefined, context: EmitContext): boolean =>
  object?.owner !== null && object?.owner !== undefined && context.dropped.has(object.owner)

export type { ObjectChange }
