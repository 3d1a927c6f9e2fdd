import {
  GraphQLIncludeDirective, GraphQLSkipDirective, Kind, getDirectiveValues,
  type FieldNode, type FragmentDefinitionNode, type SelectionSetNode,
} from 'graphql'

export interface CollectContext {
  fragments: Record<string, FragmentDefinitionNode>
  variables: Record<string, unknown>
}

/**
 * The fields a selection set asks of an object type, by response key (alias or name), merging fragments and
 * repeated keys as GraphQL's executor does; `@skip` and `@include` are honoured. `typeNames` are the names a
 * fragment's type condition may use for this object (its own and `Node`).
 */
export function collectFields(ctx: CollectContext, typeNames: string[], selectionSet: SelectionSetNode | undefined, into = new Map<string, FieldNode[]>(), seen = new Set<string>()): Map<string, FieldNode[]> {
  if (!selectionSet) return into
  for (const selection of selectionSet.selections) {
    if (!included(ctx, selection)) continue
    if (selection.kind === Kind.FIELD) {
      const key = selection.alias?.value ?? selection.name.value
      const list = into.get(key)
      if (list) list.push(selection)
      else into.set(key, [selection])
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const condition = selection.typeCondition?.name.value
      if (condition && !typeNames.includes(condition)) continue
      collectFields(ctx, typeNames, selection.selectionSet, into, seen)
    } else {
      const name = selection.name.value
      if (seen.has(name)) continue
      seen.add(name)
      const fragment = ctx.fragments[name]
      if (!fragment || !typeNames.includes(fragment.typeCondition.name.value)) continue
      collectFields(ctx, typeNames, fragment.selectionSet, into, seen)
    }
  }
  return into
}

/** The sub-selections of every node of one response key, merged. */
export function subFields(ctx: CollectContext, typeNames: string[], nodes: FieldNode[]): Map<string, FieldNode[]> {
  const into = new Map<string, FieldNode[]>()
  for (const node of nodes) collectFields(ctx, typeNames, node.selectionSet, into)
  return into
}

function included(ctx: CollectContext, node: Parameters<typeof getDirectiveValues>[1]): boolean {
  const skip = getDirectiveValues(GraphQLSkipDirective, node, ctx.variables)
  if (skip?.if === true) return false
  const include = getDirectiveValues(GraphQLIncludeDirective, node, ctx.variables)
  return include?.if !== false
}
