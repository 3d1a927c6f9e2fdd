import { QueryClient } from '@tanstack/react-query'
import type { Project } from '@stratum/contracts'
import { describe, expect, it } from 'vitest'
import { markOperationStarted } from '../src/data/lifecycle/markOperationStarted'
import { projectKeys } from '../src/data/projects/keys'

/** A fetch the test answers when it likes. */
function later<T>() {
  let answer!: (value: T) => void
  const promise = new Promise<T>((resolve) => (answer = resolve))
  return { promise, answer }
}

describe('an operation accepted while the project is being fetched', () => {
  it('keeps the status the server set: a fetch from before it does not land over it', async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    const ref = 'abc'
    const healthy = { ref, name: 'p', status: 'ACTIVE_HEALTHY' } as unknown as Project
    queryClient.setQueryData(projectKeys.detail(ref), healthy)
    queryClient.setQueryData(projectKeys.status(ref), { status: 'ACTIVE_HEALTHY' })

    // A refetch of the project and a poll of its status, both answered by the server before it accepted the restart.
    const detail = later<Project>()
    const status = later<{ status: string }>()
    const refetches = Promise.allSettled([
      queryClient.fetchQuery({ queryKey: projectKeys.detail(ref), queryFn: () => detail.promise, staleTime: 0 }),
      queryClient.fetchQuery({ queryKey: projectKeys.status(ref), queryFn: () => status.promise, staleTime: 0 }),
    ])

    await markOperationStarted(queryClient, ref, 'RESTARTING')
    detail.answer(healthy)
    status.answer({ status: 'ACTIVE_HEALTHY' })
    await refetches

    expect(queryClient.getQueryData<Project>(projectKeys.detail(ref))?.status).toBe('RESTARTING')
    expect(queryClient.getQueryData(projectKeys.status(ref))).toEqual({ status: 'RESTARTING' })
    queryClient.clear()
  })
})
