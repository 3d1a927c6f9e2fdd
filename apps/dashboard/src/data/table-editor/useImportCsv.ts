import { useMutation, useQueryClient } from '@tanstack/react-query'
import { importCsv, type CsvImportRequest } from './importCsv'
import { tableEditorKeys } from './keys'

/** Imports a CSV file into a table, then refreshes what the table editor read (row counts, rows). */
export function useImportCsv(ref: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (request: Omit<CsvImportRequest, 'ref'>) => importCsv({ ...request, ref }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: tableEditorKeys.all(ref) }),
  })
}
