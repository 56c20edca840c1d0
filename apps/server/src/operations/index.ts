export { createHealthRoutes, readinessDatabaseTimeoutMilliseconds, type HealthAnswer } from "./health-routes.ts";
export { createCloseConnectionsWhileDrainingMiddleware, createServerLifecycle, type ServerLifecycle, type ServerLifecycleState } from "./server-lifecycle.ts";
