import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv, type ValidateFunction } from "ajv";
import { parse } from "yaml";

const repositoryRoot = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "../../../../..");
/** allauth's own OpenAPI file, read in place (CI always has it beside the repository). */
export const openApiPath = path.resolve(repositoryRoot, "../shared/reference/allauth-headless/openapi.yaml");

type OpenApiDocument = { paths: Record<string, Record<string, { responses?: Record<string, { $ref?: string; content?: Record<string, unknown> }> }>> };

/** The spec's generic answer for statuses an operation does not list (allauth can answer them anywhere). */
const genericResponseByStatus: Record<number, string> = {
  400: "#/components/schemas/ErrorResponse",
  401: "#/components/schemas/AuthenticationResponse",
  403: "#/components/schemas/ForbiddenResponse",
  404: "#/components/responses/NotFound/content/application~1json/schema",
  409: "#/components/schemas/ConflictResponse",
  410: "#/components/schemas/SessionGoneResponse",
  429: "#/components/responses/TooManyRequests/content/application~1json/schema",
};

/**
 * Where openapi.yaml and allauth's real behaviour differ, API.md says allauth's behaviour wins; these patches make the
 * schema accept exactly those documented differences and nothing more.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the parsed YAML is patched at known places
function applyDocumentedDeviations(document: Record<string, any>): void {
  const schemas = document.components.schemas;
  // API.md §2 [spec≠code]: the Flow enum lacks these ids, and password_reset_by_code carries is_pending:false.
  schemas.Flow.properties.id.enum.push("password_reset_by_code", "mfa_trust", "mfa_login_webauthn", "mfa_signup_webauthn");
  schemas.Flow.properties.is_pending = { type: "boolean" };
  // The AuthenticationMethod variants overlap ({method:"password",at,reauthenticated} matches two of them), so `oneOf`
  // can never hold for the record allauth emits after reauthentication (API.md §2).
  schemas.AuthenticationMethod.anyOf = schemas.AuthenticationMethod.oneOf;
  delete schemas.AuthenticationMethod.oneOf;
  // API.md §5.6: a successful password change answers 200 with the authenticated body; the spec lists no 200.
  document.paths["/_allauth/{client}/v1/account/password/change"].post.responses["200"] = { $ref: "#/components/responses/Authenticated" };
  // The reauthentication 401 ({user, methods, flows}, is_authenticated true) also satisfies AuthenticationResponse,
  // whose data only requires flows, so the published `oneOf` can never hold for it (API.md §2).
  const authenticationOrReauthentication = document.components.responses.AuthenticationOrReauthentication.content["application/json"].schema;
  authenticationOrReauthentication.anyOf = authenticationOrReauthentication.oneOf;
  delete authenticationOrReauthentication.oneOf;
  // API.md §5.10: recovery codes are listed once (we store only their HMACs, see decision 0019); later views omit
  // `unused_codes`, as allauth does with MFA_RECOVERY_CODES_SHOW_ONCE.
  schemas.SensitiveRecoveryCodesAuthenticator.allOf[1].required = [];
  // API.md §5.10: regenerating recovery codes answers 200 with the codes; the spec lists no 200.
  document.paths["/_allauth/{client}/v1/account/authenticators/recovery-codes"].post.responses["200"] = { $ref: "#/components/responses/RecoveryCodes" };
  // API.md §5.11: GET auth/webauthn/signup answers `creation_options` (the spec says request options).
  document.paths["/_allauth/{client}/v1/auth/webauthn/signup"].get.responses["200"] = { $ref: "#/components/responses/WebAuthnCreationOptionsResponse" };
  // API.md §2: a provider sign-in records {method:"socialaccount", at, provider, uid}; the spec's variant also requires
  // `reauthenticated`, which allauth never sets on it (a copy of the password variant's list).
  for (const variant of schemas.AuthenticationMethod.anyOf) {
    if (variant.properties?.method?.enum?.includes("socialaccount")) {
      variant.required = variant.required.filter((name: string) => name !== "reauthenticated");
    }
  }
  // openapi.yaml writes OptionalTimestamp as `nullable` beside a `$ref`, which ajv cannot compile: the same meaning, spelled out.
  schemas.OptionalTimestamp = { type: "number", nullable: true };
  // API.md §2 quirk: 410 answers carry meta.is_authenticated = null.
  schemas.AuthenticationMeta.allOf[1].properties.is_authenticated = { type: "boolean", nullable: true };
}

function escapePointer(segment: string): string {
  return segment.replaceAll("~", "~0").replaceAll("/", "~1");
}

export type ContractValidator = {
  /** Returns the validation errors (empty when the answer matches the contract). */
  validate: (observed: { method: string; path: string; status: number; body: unknown }) => string[];
};

let cachedValidator: ContractValidator | null | undefined;

/** A validator of observed answers against openapi.yaml, or `null` when the file is missing. */
export function loadContractValidator(): ContractValidator | null {
  if (cachedValidator !== undefined) {
    return cachedValidator;
  }
  if (!fs.existsSync(openApiPath)) {
    cachedValidator = null;
    return null;
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed YAML
  const document = parse(fs.readFileSync(openApiPath, "utf8")) as OpenApiDocument & Record<string, any>;
  applyDocumentedDeviations(document);
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addSchema(document, "openapi.json");
  const compiled = new Map<string, ValidateFunction>();
  const templates = Object.keys(document.paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace("{client}", "(browser|app)").replace(/\{[^}]+\}/g, "[^/]+")}$`),
  }));

  function schemaPointerFor(method: string, requestPath: string, status: number): string | null {
    const template = templates.find((candidate) => candidate.pattern.test(requestPath))?.template;
    const operation = template ? document.paths[template]?.[method.toLowerCase()] : undefined;
    const response = operation?.responses?.[String(status)];
    if (template && response) {
      if (response.$ref) {
        return `${response.$ref}/content/application~1json/schema`;
      }
      if (response.content?.["application/json"]) {
        return `#/paths/${escapePointer(template)}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`;
      }
    }
    return genericResponseByStatus[status] ?? null;
  }

  cachedValidator = {
    validate({ method, path: requestPath, status, body }) {
      const pointer = schemaPointerFor(method, requestPath, status);
      if (!pointer) {
        return [`openapi.yaml describes no ${status} answer for ${method} ${requestPath}.`];
      }
      let validateFunction = compiled.get(pointer);
      if (!validateFunction) {
        validateFunction = ajv.compile({ $ref: `openapi.json${pointer}` });
        compiled.set(pointer, validateFunction);
      }
      if (validateFunction(body)) {
        return [];
      }
      return (validateFunction.errors ?? []).map((error) => `${method} ${requestPath} ${status}: ${error.instancePath || "(root)"} ${error.message ?? ""} (${pointer})`);
    },
  };
  return cachedValidator;
}
