export { atelierNginxServerBlock, createSelfSignedCertificate, findNginx, startNginx, type NginxTls, type RunningNginx } from "@atelier/server/testing/nginx";
