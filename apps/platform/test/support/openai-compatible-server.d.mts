/* eslint-disable @typescript-eslint/no-explicit-any -- request bodies are whatever the client sent */

/** One chat request as the scripted reply sees it. */
export interface OpenAiCompatibleRequest {
  /** The conversation, each content flattened to its text. */
  messages: Array<{ role: string; content: string }>
  /** The JSON body as received (model, stream, stream_options, temperature...). */
  body: any
  /** The Authorization header, or null when the client sent none. */
  authorization: string | null
  /** Aborted when the client disconnects before the answer is complete (e.g. a cancelled completion). */
  signal: AbortSignal
}

/** A tool call the model makes; `chunkDelayMs` spaces out the pieces of its streamed arguments. */
export interface OpenAiCompatibleToolCall {
  name: string
  arguments: Record<string, unknown>
  chunkDelayMs?: number
}

/** The assistant's text, tool calls (streamed), or an error answered with that HTTP status in OpenAI's error shape. */
export type OpenAiCompatibleAnswer = string | { status: number; message: string } | { toolCalls: OpenAiCompatibleToolCall[] }
export type OpenAiCompatibleReply = (request: OpenAiCompatibleRequest) => OpenAiCompatibleAnswer | Promise<OpenAiCompatibleAnswer>

export interface OpenAiCompatibleServerOptions {
  /** Default: an ephemeral port. */
  port?: number
  /** Default: always 'select 1;'. */
  reply?: OpenAiCompatibleReply
  /** When set, requests without `Authorization: Bearer <apiKey>` get OpenAI's 401. */
  apiKey?: string
}

export interface OpenAiCompatibleServer {
  /** Base URL ending in /v1, e.g. http://127.0.0.1:41234/v1 (STRATUM_AI_BASE_URL). */
  url: string
  /**
   * The JSON bodies received by POST /v1/chat/completions, in order. Each also carries a
   * non-enumerable `authorization` (the header, or null).
   */
  requests: any[]
  setReply(fn: OpenAiCompatibleReply): void
  close(): Promise<void>
}

export function startOpenAiCompatibleServer(options?: OpenAiCompatibleServerOptions): Promise<OpenAiCompatibleServer>
