import { GraphQLError, Kind, type ASTVisitor, type FragmentDefinitionNode, type SelectionSetNode, type ValidationContext } from 'graphql'

/**
 * How deep a selection may nest (fields, counting edges and node: a nested collection is three levels).
 * Each level multiplies rows by at most a page (30 by default, the `max_rows` directive), so depth bounds the work
 * of one statement. Introspection (`__schema`, `__type`) is not counted: GraphiQL's query nests deeper.
 */
export const MAX_DEPTH = 16

/** How many fields one operation may select, fragments expanded (aliases make a document wide cheaply). */
export const MAX_FIELDS = 2000

interface Measure {
  depth: number
  fields: number
}

export function operationLimits(maxDepth = MAX_DEPTH, maxFields = MAX_FIELDS) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>()
    for (const definition of context.getDocument().definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition)
    }
    // A fragment's measure is the same wherever it is spread: computed once (a cycle counts as empty; validation reports it).
    const known = new Map<string, Measure>()
    const measureFragment = (name: string, seen: Set<string>): Measure => {
      const cached = known.get(name)
      if (cached) return cached
      if (seen.has(name)) return { depth: 0, fields: 0 }
      const measure = measureSet(fragments.get(name)?.selectionSet, new Set([...seen, name]))
      known.set(name, measure)
      return measure
    }
    const measureSet = (set: SelectionSetNode | undefined, seen: Set<string>): Measure => {
      const total: Measure = { depth: 0, fields: 0 }
      if (!set) return total
      for (const selection of set.selections) {
        let inner: Measure
        if (selection.kind === Kind.FIELD) {
          if (selection.name.value === '__schema' || selection.name.value === '__type') continue
          const below = measureSet(selection.selectionSet, seen)
          inner = { depth: below.depth + 1, fields: below.fields + 1 }
        } else if (selection.kind === Kind.INLINE_FRAGMENT) inner = measureSet(selection.selectionSet, seen)
        else inner = measureFragment(selection.name.value, seen)
        total.depth = Math.max(total.depth, inner.depth)
        total.fields = Math.min(total.fields + inner.fields, Number.MAX_SAFE_INTEGER)
      }
      return total
    }
    return {
      OperationDefinition(node) {
        const { depth, fields } = measureSet(node.selectionSet, new Set())
        if (depth > maxDepth) context.reportError(new GraphQLError(`The query is nested ${depth} levels deep: the most accepted is ${maxDepth}`, { nodes: node }))
        else if (fields > maxFields) context.reportError(new GraphQLError(`The query selects ${fields} fields: the most accepted is ${maxFields}`, { nodes: node }))
      },
    }
  }
}
