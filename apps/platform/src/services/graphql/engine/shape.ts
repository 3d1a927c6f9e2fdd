import {
  GraphQLIncludeDirective, GraphQLList, GraphQLNonNull, GraphQLSkipDirective, Kind, getDirectiveValues, isAbstractType, isLeafType, isObjectType, typeFromAST,
  type FieldNode, type FragmentDefinitionNode, type GraphQLObjectType, type GraphQLOutputType, type GraphQLSchema, type SelectionSetNode,
} from 'graphql'

/**
 * The response of an operation whose statement already answered every field, shaped as graphql-js's `execute` would
 * shape it (fields in selection order, `__typename`, scalars and enums serialized), without its machinery: a resolver
 * call, a path and a promise check per field made `execute` most of a request's time (issue 31: about 10 ms of
 * 100 rows with two nested relations, several times the statement).
 *
 * Only the plain case is shaped here; `null` means "let graphql-js execute it", which then reports what it reports:
 * a null where the type says non-null, a value a scalar refuses, a list that is not one, an abstract type (Node),
 * introspection. So every answer stays graphql-js's own, this is only its fast path.
 */
export function shapeResponse(
  schema: GraphQLSchema,
  rootType: GraphQLObjectType,
  selectionSet: SelectionSetNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
  root: Record<string, unknown>,
): Record<string, unknown> | null {
  let shape: Completer
  try {
    // Planned once per request from the selection (as execute collects fields once per type and field), then run
    // over the rows.
    shape = new Shaper(schema, fragments, variables).objectCompleter(rootType, [selectionSet])
  } catch (error) {
    if (error instanceof NeedsExecutor) return null
    throw error
  }
  try {
    return shape(root) as Record<string, unknown>
  } catch (error) {
    if (error instanceof NeedsExecutor) return null
    throw error
  }
}

type Completer = (value: unknown) => unknown

/** Raised where graphql-js's own execution must answer (see shapeResponse). */
class NeedsExecutor extends Error {}

class Shaper {
  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: Record<string, FragmentDefinitionNode>,
    private readonly variables: Record<string, unknown>,
  ) {}

  objectCompleter(type: GraphQLObjectType, selectionSets: SelectionSetNode[]): Completer {
    const fields = new Map<string, FieldNode[]>()
    const visited = new Set<string>()
    for (const selectionSet of selectionSets) this.collect(type, selectionSet, fields, visited)
    const definitions = type.getFields()
    const entries: Array<{ key: string; typename: string } | { key: string; complete: Completer }> = []
    for (const [key, nodes] of fields) {
      const name = nodes[0]!.name.value
      if (name === '__typename') {
        entries.push({ key, typename: type.name })
        continue
      }
      const definition = definitions[name]
      if (!definition || name.startsWith('__')) throw new NeedsExecutor()
      entries.push({ key, complete: this.valueCompleter(definition.type, nodes) })
    }
    return (source) => {
      if (typeof source !== 'object' || source === null || Array.isArray(source)) throw new NeedsExecutor()
      const row = source as Record<string, unknown>
      const result: Record<string, unknown> = {}
      for (const entry of entries) result[entry.key] = 'typename' in entry ? entry.typename : entry.complete(row[entry.key])
      return result
    }
  }

  private valueCompleter(type: GraphQLOutputType, nodes: FieldNode[]): Completer {
    if (type instanceof GraphQLNonNull) {
      const inner = this.valueCompleter(type.ofType, nodes)
      return (value) => {
        const completed = inner(value)
        if (completed === null) throw new NeedsExecutor()
        return completed
      }
    }
    if (type instanceof GraphQLList) {
      const item = this.valueCompleter(type.ofType, nodes)
      return (value) => {
        if (value === null || value === undefined) return null
        if (!Array.isArray(value)) throw new NeedsExecutor()
        return value.map(item)
      }
    }
    if (isLeafType(type)) {
      return (value) => {
        if (value === null || value === undefined) return null
        let serialized: unknown
        try {
          serialized = type.serialize(value)
        } catch {
          throw new NeedsExecutor()
        }
        if (serialized === null || serialized === undefined) throw new NeedsExecutor()
        return serialized
      }
    }
    if (isObjectType(type)) {
      const object = this.objectCompleter(type, nodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : [])))
      return (value) => (value === null || value === undefined ? null : object(value))
    }
    throw new NeedsExecutor()
  }

  /** graphql-js's field collection: response keys in first-seen order, @skip/@include, fragments once each. */
  private collect(type: GraphQLObjectType, selectionSet: SelectionSetNode, fields: Map<string, FieldNode[]>, visited: Set<string>): void {
    for (const selection of selectionSet.selections) {
      if (!this.included(selection)) continue
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value
        const list = fields.get(key)
        if (list) list.push(selection)
        else fields.set(key, [selection])
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (selection.typeCondition && !this.applies(type, selection.typeCondition)) continue
        this.collect(type, selection.selectionSet, fields, visited)
      } else {
        const name = selection.name.value
        if (visited.has(name)) continue
        visited.add(name)
        const fragment = this.fragments[name]
        if (!fragment || !this.applies(type, fragment.typeCondition)) continue
        this.collect(type, fragment.selectionSet, fields, visited)
      }
    }
  }

  private applies(type: GraphQLObjectType, condition: Parameters<typeof typeFromAST>[1]): boolean {
    const conditional = typeFromAST(this.schema, condition)
    if (conditional === type) return true
    return conditional !== undefined && isAbstractType(conditional) && this.schema.isSubType(conditional, type)
  }

  private included(node: Parameters<typeof getDirectiveValues>[1]): boolean {
    if (getDirectiveValues(GraphQLSkipDirective, node, this.variables)?.if === true) return false
    return getDirectiveValues(GraphQLIncludeDirective, node, this.variables)?.if !== false
  }
}
