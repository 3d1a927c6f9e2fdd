import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { ToastProvider } from '../components/ui/Toast'
import { isApiError } from '../data/api'
import { profileKeys } from '../data/profile/keys'

/**
 * A 401 from any call means the session ended (expired, signed out in another tab).
 * Re-checking the profile makes the auth gate notice and send the user to the sign-in page.
 */
function onUnauthorized(error: unknown, queryKey?: readonly unknown[]) {
  if (!isApiError(error, 401)) return
  if (queryKey && queryKey[0] === profileKeys.all[0] && queryKey[1] === 'me') return
  void queryClient.invalidateQueries({ queryKey: profileKeys.me() })
}

const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: (error, query) => onUnauthorized(error, query.queryKey) }),
  mutationCache: new MutationCache({ onError: (error) => onUnauthorized(error) }),
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      refetchOnWindowFocus: true,
      // Client errors will not fix themselves; retry only what may be transient.
      retry: (count, error) => (isApiError(error) && error.status >= 400 && error.status < 500 ? false : count < 2),
    },
  },
})

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ToastProvider>{children}</ToastProvider>
    </QueryClientProvider>
  )
}
