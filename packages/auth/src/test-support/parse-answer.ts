import * as v from "valibot";
import { authenticationResponseSchema, type AuthenticationResponse } from "../schemas.ts";

/** A canned answer as the client would return it. */
export function asAuthenticationResponse(answer: unknown): AuthenticationResponse {
  return v.parse(authenticationResponseSchema, answer);
}
