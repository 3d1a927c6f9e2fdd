// The pages of this feature, for the router (loaded on demand through app/areas/database.ts).
export { DatabaseWebhooksPage } from './DatabaseWebhooksPage'
