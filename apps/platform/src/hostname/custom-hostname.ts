import { customDomainNotAllowedMessage } from '@stratum/contracts'
import { DomainError, invalidInput } from '../errors.js'

/**
 * Custom hostnames need the custom domain add-on, which Stratum does not offer. The read answers what
 * the hosted API answers for a project without the add-on: a 400 whose message says the project is
 * 'not allowed to set up custom domain' (the dashboard shows that as status 0_not_allowed). No
 * hostname is invented.
 */
export function customHostnameUnavailable(ref: string): DomainError {
  return invalidInput(customDomainNotAllowedMessage(ref))
}
