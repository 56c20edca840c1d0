import { index, route, type RouteConfig } from "@react-router/dev/routes";
import { paintings } from "@atelier/catalogue";

// One route per painting rather than a `/:paintingId` pattern, so that an unknown first segment falls to the
// not-found route and the server can answer it with status 404.
const paintingRoutes = paintings.flatMap((painting) => [
  route(painting.id, "routes/painting.tsx", { id: `painting/${painting.id}` }),
  route(`${painting.id}/image/:imageId`, "routes/image-viewer.tsx", { id: `image-viewer/${painting.id}` }),
]);

export default [
  index("routes/home.tsx"),
  route("paintings", "routes/paintings.tsx"),
  route("about", "routes/about.tsx"),
  route("events", "routes/events.tsx"),
  route("expositions", "routes/expositions.tsx"),
  route("contact", "routes/contact.tsx"),
  route("privacy-policy", "routes/privacy-policy.tsx"),
  route("Licence", "routes/licence.tsx"),
  ...paintingRoutes,
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
