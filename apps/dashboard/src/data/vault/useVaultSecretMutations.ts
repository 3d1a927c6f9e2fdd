import { useMutation, useQueryClient } from '@tanstack/react-query'
import { runEditorSql } from '../table-editor/runEditorSql'
import { vaultKeys } from './keys'
import { createVaultSecretSql, deleteVaultSecretSql, updateVaultSecretSql, type VaultSecretInput } from './vaultSql'

export const createVaultSecret = ({ ref, input }: { ref: string; input: VaultSecretInput }) => runEditorSql(ref, createVaultSecretSql(input), { write: true })
export const updateVaultSecret = ({ ref, id, input }: { ref: string; id: string; input: VaultSecretInput }) =>
  runEditorSql(ref, updateVaultSecretSql(id, input), { write: true })
export const deleteVaultSecret = ({ ref, id }: { ref: string; id: string }) => runEditorSql(ref, deleteVaultSecretSql(id), { write: true })

/** Each change reads the list again when it settles (a failed one may still have changed it). */
function useVaultMutation<V extends { ref: string }>(mutationFn: (variables: V) => Promise<unknown>) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn,
    onSettled: (_result, _error, { ref }) => queryClient.invalidateQueries({ queryKey: vaultKeys.secrets(ref) }),
  })
}

export const useCreateVaultSecret = () => useVaultMutation(createVaultSecret)
export const useUpdateVaultSecret = () => useVaultMutation(updateVaultSecret)
export const useDeleteVaultSecret = () => useVaultMutation(deleteVaultSecret)
