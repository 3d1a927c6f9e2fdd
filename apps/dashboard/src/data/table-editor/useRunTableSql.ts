import { useMutation, useQueryClient } from '@tanstack/react-query'
import { tableEditorKeys } from './keys'
import { runEditorSql } from './runEditorSql'

/**
 * Runs a table-editor write (rows, DDL, RLS, policies) on the full connection, then refreshes what
 * the editor read: lists, the relation and its rows.
 */
export function useRunTableSql(ref: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (sql: string) => runEditorSql(ref, sql, { write: true }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: tableEditorKeys.all(ref) }),
  })
}
