import {
  GraphQLError, UniqueInputFieldNamesRule, VariablesInAllowedPositionRule, execute, getOperationAST, getVariableValues, parse, specifiedRules, validate,
  Kind, type DocumentNode, type ExecutionResult, type FragmentDefinitionNode, type GraphQLFieldResolver, type GraphQLSchema,
} from 'graphql'
import type pg from 'pg'
import type { Logger } from 'pino'
import { compileMutation, compileQuery, type Statement } from './compile.js'
import { databaseMessage, GraphqlEngineError, pgGraphqlMessage, withoutData } from './errors.js'
import { operationLimits } from './limits.js'
import { buildModel, type Model } from './model.js'
import { reflectCatalog } from './reflect.js'
import { buildSchema } from './schema.js'
import { shapeResponse } from './shape.js'

export interface GraphqlRequest {
  query: string
  variables?: Record<string, unknown> | null
  operationName?: string | null
}

export interface RequestIdentity {
  role: string
  claims: Record<string, unknown>
}

interface Built {
  schema: GraphQLSchema
  model: Model
  /** Documents already parsed and validated against this schema, by operation name and text (see prepared()). */
  prepared: Map<string, Prepared>
}

/** A request's text parsed and validated once: the document to compile, or the answer refusing it. */
type Prepared = { document: DocumentNode; hidden: string[] } | { refusal: Body }

/** How many texts each role's schema keeps prepared: an application sends a handful of texts many times. */
const PREPARED_PER_SCHEMA = 500
/** Longer texts are prepared each time: the cache holds at most 500 x 16 KB per schema, whatever a client sends. */
const PREPARED_TEXT_MAX = 16_384

type Body = { data?: unknown; errors?: Array<{ message: string; locations?: unknown; path?: unknown }> }

/** Every field reads its response key from the JSON the statement answered (aliases included). */
const fromJson: GraphQLFieldResolver<unknown, unknown> = (source, _args, _context, info) =>
  source && typeof source === 'object' ? (source as Record<string, unknown>)[String(info.path.key)] : undefined

/**
 * graphql-js's rules but one: like pg_graphql, a variable may stand where its type coerces (an `Int!` variable for
 * an `in: [Int!]` list, `[T]` for `[T!]`; the compiler takes a single value as a list of one), and an input object
 * may name a field twice (the last one counts).
 */
const rules = [...specifiedRules.filter((rule) => rule !== VariablesInAllowedPositionRule && rule !== UniqueInputFieldNamesRule), operationLimits()]

/** A text for a literal in the simple-query protocol, safe whatever standard_conforming_strings says. */
const escaped = (text: string) => `E'${text.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`

/**
 * One project's GraphQL engine: pg_graphql's schema reflected per role (cached until the DDL watch
 * notifies), each operation compiled to SQL and run in a transaction as the request's role with its claims.
 */
/** Where the engine gets its connections: a pool (or, for the regression harness, one session). */
export type Connector = Pick<pg.Pool, 'connect'>

export interface EngineOptions {
  /**
   * Introspection where no exposed schema's `introspection` directive says: on for the platform (GraphiQL and
   * code generators need it), off in pg_graphql 1.6, which the suite harness reproduces.
   */
  introspectionByDefault?: boolean
  /**
   * For tools/pg-graphql-suite: run inside the caller's transaction (a savepoint), as the session's own role, with
   * the schemas on its search_path, reflecting the catalog on every operation (the suite changes it between calls).
   */
  nested?: boolean
}

export class GraphqlEngine {
  private readonly schemas = new Map<string, Promise<Built>>()

  constructor(
    private readonly pool: Connector,
    private readonly exposed: string[],
    private readonly log: Pick<Logger, 'warn'>,
    private readonly options: EngineOptions = {},
  ) {}

  /** A schema change: the next request of each role reflects the catalog again. */
  invalidate(): void {
    this.schemas.clear()
  }

  async handle(request: GraphqlRequest, identity: RequestIdentity): Promise<Body> {
    let built: Built
    try {
      built = await this.schemaFor(identity)
    } catch (error) {
      this.log.warn({ err: error }, 'GraphQL schema could not be reflected')
      return { data: null, errors: [{ message: `The GraphQL schema could not be built: ${(error as Error).message}` }] }
    }
    if (request.variables !== undefined && request.variables !== null && (typeof request.variables !== 'object' || Array.isArray(request.variables))) {
      return { errors: [{ message: 'variables must be an object' }] }
    }
    const prepared = this.prepared(built, request)
    if ('refusal' in prepared) return structuredClone(prepared.refusal)
    const { document, hidden } = prepared
    const operation = getOperationAST(document, request.operationName ?? undefined)
    if (!operation) return { errors: [{ message: 'Operation not found' }] }
    if (operation.operation === 'mutation' && !built.schema.getMutationType()) return { data: null, errors: [{ message: 'Unknown type Mutation' }] }
    if (operation.operation === 'subscription') return { data: null, errors: [{ message: 'Subscriptions are not supported' }] }
    const coerced = getVariableValues(built.schema, operation.variableDefinitions ?? [], request.variables ?? {}, { maxErrors: 20 })
    if (coerced.errors) return { data: null, errors: [{ message: pgGraphqlMessage(coerced.errors[0]!.message) }] }
    const hiddenErrors = hidden.map((name) => ({ message: `Unknown field "${name}" on type Query` }))
    if (hidden.length > 0 && operation.selectionSet.selections.length === 0) return { data: null, errors: hiddenErrors }
    const fragments: Record<string, FragmentDefinitionNode> = {}
    for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition
    const collect = { fragments, variables: coerced.coerced }

    let root: Record<string, unknown>
    try {
      const statements = operation.operation === 'query'
        ? [compileQuery(built.schema, built.model, collect, operation)].filter((statement): statement is Statement => statement !== null)
        : compileMutation(built.schema, built.model, collect, operation)
      root = await this.run(identity, statements, operation.operation === 'mutation')
    } catch (error) {
      if (error instanceof GraphqlEngineError) return { data: null, errors: [{ message: error.message }] }
      if (error instanceof GraphQLError) return { data: null, errors: [{ message: error.message }] }
      if (isDatabaseError(error)) return { data: null, errors: [{ message: databaseMessage(error.message) }] }
      throw error
    }
    const rootType = operation.operation === 'query' ? built.schema.getQueryType() : built.schema.getMutationType()
    const shaped = rootType ? shapeResponse(built.schema, rootType, operation.selectionSet, fragments, coerced.coerced, root) : null
    if (shaped) return hiddenErrors.length > 0 ? { data: shaped, errors: hiddenErrors } : { data: shaped }
    const result: ExecutionResult = await execute({
      schema: built.schema,
      document,
      rootValue: root,
      variableValues: request.variables ?? {},
      operationName: request.operationName ?? undefined,
      fieldResolver: fromJson,
    })
    const body: Body = { data: result.data ?? null }
    if (result.errors?.length) body.errors = result.errors.map((error) => ({ message: error.message, locations: error.locations, path: error.path }))
    if (hiddenErrors.length > 0) body.errors = [...(body.errors ?? []), ...hiddenErrors]
    return body
  }

  /**
   * Parsing and validation depend on the text, the operation's name and the schema only: done once per text and
   * kept with the schema (a DDL change makes a new one), the oldest text going first when it is full.
   */
  private prepared(built: Built, request: GraphqlRequest): Prepared {
    const key = `${request.operationName ?? ''}\n${request.query}`
    const known = built.prepared.get(key)
    if (known) return known
    const made = this.prepare(built, request)
    if (key.length > PREPARED_TEXT_MAX) return made
    if (built.prepared.size >= PREPARED_PER_SCHEMA) built.prepared.delete(built.prepared.keys().next().value!)
    built.prepared.set(key, made)
    return made
  }

  private prepare(built: Built, request: GraphqlRequest): Prepared {
    let document: DocumentNode
    try {
      document = parse(request.query, { maxTokens: 20_000 })
    } catch (error) {
      return { refusal: { data: null, errors: [{ message: `Parse error: ${(error as Error).message}` }] } }
    }
    const refusal = operationRefusal(document, request.operationName ?? undefined)
    if (refusal) return { refusal: { errors: [{ message: refusal }] } }
    const hidden: string[] = []
    if (!this.introspectionEnabled(built)) document = withoutIntrospection(document, hidden)
    const invalid = validate(built.schema, document, rules, { maxErrors: 20 })
    if (invalid.length > 0) {
      // pg_graphql reports the first problem, in its words.
      const message = pgGraphqlMessage(invalid[0]!.message)
      const error = { message, locations: invalid[0]!.locations }
      return { refusal: withoutData(message) ? { errors: [error] } : { data: null, errors: [error] } }
    }
    return { document, hidden }
  }

  /** On when any exposed schema enables it (pg_graphql's `introspection` directive), else the engine's default. */
  private introspectionEnabled(built: Built): boolean {
    const fallback = this.options.introspectionByDefault ?? true
    return built.model.schemas.some((schema) => schema.directives.introspection ?? fallback)
  }

  private schemaFor(identity: RequestIdentity): Promise<Built> {
    if (this.options.nested) {
      return this.inTransaction(identity, async (client) => {
        const { rows } = await client.query<{ name: string }>(
          `SELECT name FROM unnest(current_schemas(false)) AS name WHERE name NOT IN ('graphql', 'graphql_public', 'auth', 'extensions', 'stratum_suite', 'information_schema')`,
        )
        const model = buildModel(await reflectCatalog(client, rows.map((row) => row.name)))
        return { model, schema: buildSchema(model), prepared: new Map() }
      })
    }
    let built = this.schemas.get(identity.role)
    if (!built) {
      built = this.inTransaction(identity, async (client) => {
        const model = buildModel(await reflectCatalog(client, this.exposed))
        return { model, schema: buildSchema(model), prepared: new Map() }
      })
      this.schemas.set(identity.role, built)
      // A failed build is not kept: the next request tries again.
      built.catch(() => {
        if (this.schemas.get(identity.role) === built) this.schemas.delete(identity.role)
      })
    }
    return built
  }

  /** Runs the statements in one transaction as the role, in order; a mutation's failure rolls all back. */
  private run(identity: RequestIdentity, statements: Statement[], mutation: boolean): Promise<Record<string, unknown>> {
    if (statements.length === 0) return Promise.resolve({})
    return this.inTransaction(identity, async (client) => {
      const root: Record<string, unknown> = {}
      for (const statement of statements) {
        const { rows } = await client.query<{ value: unknown }>({ text: statement.sql, values: statement.params })
        const value = rows[0]?.value ?? null
        if (mutation) root[statement.keys[0]!] = value
        else Object.assign(root, value as Record<string, unknown>)
      }
      return root
    })
  }

  private async inTransaction<T>(identity: RequestIdentity, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect()
    if (this.options.nested) return this.inSavepoint(client, work)
    let broken = false
    try {
      // One round trip for BEGIN and the settings: the role and claims as PostgREST sets them, local to the transaction.
      await client.query(
        `BEGIN; SELECT set_config('role', ${escaped(identity.role)}, true), set_config('request.jwt.claims', ${escaped(JSON.stringify(identity.claims))}, true),` +
          ` set_config('request.jwt.claim.role', ${escaped(identity.role)}, true)`,
      )
      const result = await work(client)
      await client.query('COMMIT')
      return result
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {
        broken = true
      })
      throw error
    } finally {
      client.release(broken)
    }
  }

  /** The harness's mode: the caller's transaction stays open whatever happens here. */
  private async inSavepoint<T>(client: pg.PoolClient, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    try {
      await client.query('SAVEPOINT stratum_graphql')
      try {
        const result = await work(client)
        await client.query('RELEASE SAVEPOINT stratum_graphql')
        return result
      } catch (error) {
        await client.query('ROLLBACK TO SAVEPOINT stratum_graphql').catch(() => {})
        throw error
      }
    } finally {
      client.release()
    }
  }
}

/** pg_graphql's checks of the operations, made before any field is looked at. */
function operationRefusal(document: DocumentNode, operationName: string | undefined): string | null {
  const operations = document.definitions.filter((definition) => definition.kind === Kind.OPERATION_DEFINITION)
  if (operations.length > 1 && operations.some((operation) => !operation.name)) return 'Anonymous operations must be the only defined operation'
  const names = operations.map((operation) => operation.name?.value)
  if (new Set(names).size !== names.length) return 'Operation names must be unique'
  const chosen = operationName === undefined ? (operations.length === 1 ? operations[0] : undefined) : operations.find((operation) => operation.name?.value === operationName)
  if (!chosen) return 'Operation not found'
  if (chosen.operation === 'subscription') return 'Subscriptions are not supported'
  return null
}

/** The document without top-level `__schema` and `__type` fields (their names go to `hidden`). */
function withoutIntrospection(document: DocumentNode, hidden: string[]): DocumentNode {
  return {
    ...document,
    definitions: document.definitions.map((definition) => {
      if (definition.kind !== Kind.OPERATION_DEFINITION || definition.operation !== 'query') return definition
      const selections = definition.selectionSet.selections.filter((selection) => {
        const meta = selection.kind === Kind.FIELD && (selection.name.value === '__schema' || selection.name.value === '__type')
        if (meta && !hidden.includes(selection.name.value)) hidden.push(selection.name.value)
        return !meta
      })
      return { ...definition, selectionSet: { ...definition.selectionSet, selections } }
    }),
  }
}

function isDatabaseError(error: unknown): error is Error & { code: string } {
  const code = (error as { code?: unknown } | null)?.code
  return error instanceof Error && typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)
}
