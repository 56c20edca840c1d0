export { createHealthRoutes, healthCheckPaths, readinessDatabaseTimeoutMilliseconds, type HealthAnswer } from "./health-routes.ts";
export { createDrainingMiddleware, createServerLifecycle, drainingAnswerHeaderName, drainingMessage, type ServerLifecycle, type ServerLifecycleState } from "./server-lifecycle.ts";
