import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { signingKeyKeys } from './keys'

export const getSigningKeys = (ref: string, signal?: AbortSignal) =>
  request('GET /v1/projects/{ref}/config/auth/signing-keys', { params: { ref }, signal })

/**
 * The project's JWT signing keys (public halves only), the legacy secret listed among them as an HS256 key without a
 * public JWK. Every member reads them; changing them needs secrets.write, which the server checks.
 */
export const signingKeysQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: signingKeyKeys.list(ref ?? ''),
    queryFn: ref ? ({ signal }) => getSigningKeys(ref, signal) : skipToken,
    select: (answer) => answer.keys,
  })

export const useSigningKeys = (ref: string | undefined) => useQuery(signingKeysQuery(ref))
