// Loaded on demand: the Realtime inspector (with supabase-js, which only it needs) and settings.
export { RealtimeInspectorPage } from '../../features/realtime/RealtimeInspectorPage'
export { RealtimeSettingsPage } from '../../features/realtime/RealtimeSettingsPage'
