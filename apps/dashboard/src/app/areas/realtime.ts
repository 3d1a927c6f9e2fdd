// Loaded on demand: the Realtime inspector (with supabase-js, which only it needs).
export { RealtimeInspectorPage } from '../../features/realtime/RealtimeInspectorPage'
