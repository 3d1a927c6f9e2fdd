import type { Extension } from './authorization.js'
import type { ChangeListener } from './changes/project-changes.js'

/**
 * A joined channel as its project sees it (project-realtime.ts): where to send, what it may read, what it listens to.
 * Channel (channel.ts) is the one implementation; the interface keeps the project from importing it back.
 */
export interface ChannelMember extends ChangeListener {
  /** `realtime:<name>`, as frames carry it. */
  readonly topic: string
  /** Public and private channels of the same name are separate topics. */
  readonly topicKey: string
  readonly presenceKey: string
  canRead(extension: Extension): boolean
  /** Supabase's channel shutdown: a `system` error, then phx_close. */
  shutdown(reason: string): void
}
