import { useEffect, useRef, useState } from "react";
import { Form, Link, redirect, useActionData, useNavigation, useSearchParams } from "react-router";
import type { Route } from "./+types/login";
import { postApi } from "../api/client";
import type { ErrorCode } from "../api/error-codes";
import { messageFor } from "../api/messages";
import type { SignInAnswer } from "../api/account";
import type { UserInfo } from "../api/user-info";
import { Spinner } from "../components/spinner";
import { signedIn } from "../startup/account-session";
import { safeNextPath } from "../startup/safe-next";
import { useStartup } from "../startup/startup-state";

export function meta() {
  return [{ title: "Sign in · Paydesk" }];
}

type Failure = { code: ErrorCode; message: string; field?: string };

function text(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}

export async function clientAction({ request }: Route.ClientActionArgs): Promise<Failure | Response> {
  const form = await request.formData();
  const handle = text(form, "handle").trim();
  const password = text(form, "password");
  const next = safeNextPath(new URL(request.url).searchParams.get("next"));

  if (text(form, "intent") === "register") {
    const created = await postApi<UserInfo>(
      "/api/user/register",
      { handle, password, displayName: text(form, "displayName").trim() },
      { idempotencyKey: text(form, "idempotencyKey") },
    );
    // A replayed HANDLE_TAKEN after our own success cannot happen: a retry replays the success.
    if (created.code !== "SUCCESS") return { code: created.code, message: messageFor(created.code, created.message, created.field), field: created.field };
  }

  const answer = await postApi<SignInAnswer>("/api/user/login", { handle, password });
  if (answer.code !== "SUCCESS") return { code: answer.code, message: messageFor(answer.code, answer.message, answer.field), field: answer.field };
  signedIn(answer.data.token, answer.data.user);
  return redirect(next);
}

function Field({
  id,
  label,
  error,
  hint,
  ...input
}: { id: string; label: string; error?: string; hint?: string } & React.InputHTMLAttributes<HTMLInputElement>) {
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      ) : null}
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={described} {...input} />
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export default function Login() {
  const { ready, user, session } = useStartup();
  const [params] = useSearchParams();
  const failure = useActionData<typeof clientAction>() as Failure | undefined;
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const next = safeNextPath(params.get("next"));
  const registering = params.get("mode") === "register";
  const title = registering ? "Create your account" : "Sign in";
  // One key per attempt: a retry of the same form (no answer came) cannot create a second
  // account; after a definite refusal the user changes something, so the next try gets a new key.
  const [idempotencyKey, setIdempotencyKey] = useState(() => `register-${crypto.randomUUID()}`);
  useEffect(() => {
    if (failure && failure.code !== "ORIGIN_UNAVAILABLE" && failure.code !== "ORIGIN_TIMEOUT") {
      setIdempotencyKey(`register-${crypto.randomUUID()}`);
    }
  }, [failure]);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (!failure) return;
    const target = failure.field ? formRef.current?.querySelector<HTMLInputElement>(`[name="${failure.field}"]`) : null;
    (target ?? formRef.current?.querySelector<HTMLElement>("[role=alert]"))?.focus();
  }, [failure]);

  const fieldError = (name: string) => (failure?.field === name ? failure.message : undefined);
  return (
    <section className="narrow" aria-labelledby="login-title">
      <h1 id="login-title">{title}</h1>
      {!ready ? (
        <Spinner label="Checking your session…" />
      ) : user ? (
        <p>
          You are signed in as <strong>{user.displayName}</strong> (@{user.handle}). <Link to={next}>Continue</Link>
        </p>
      ) : (
        <>
          {session === "unreachable" ? (
            <p className="notice notice-warning">Paydesk cannot reach its service right now; signing in may fail.</p>
          ) : null}
          <Form method="post" className="form" ref={formRef} noValidate={false}>
            {failure && !failure.field ? (
              <p className="form-error" role="alert" tabIndex={-1}>
                {failure.message}
              </p>
            ) : null}
            <input type="hidden" name="intent" value={registering ? "register" : "login"} />
            <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
            <Field
              id="login-handle"
              label="Handle"
              name="handle"
              hint="3 to 32 lower-case letters, digits or underscores."
              autoComplete="username"
              required
              minLength={3}
              maxLength={32}
              pattern="[a-z0-9_]{3,32}"
              autoCapitalize="none"
              spellCheck={false}
              error={fieldError("handle")}
            />
            {registering ? (
              <Field
                id="login-display-name"
                label="Display name"
                name="displayName"
                hint="The name people see when they send you money."
                autoComplete="name"
                required
                maxLength={64}
                error={fieldError("displayName")}
              />
            ) : null}
            <Field
              id="login-password"
              label="Password"
              name="password"
              type="password"
              hint={registering ? "At least 10 characters." : undefined}
              autoComplete={registering ? "new-password" : "current-password"}
              required
              minLength={10}
              maxLength={256}
              error={fieldError("password")}
            />
            <button className="button" type="submit" disabled={submitting} aria-disabled={submitting}>
              {submitting ? (registering ? "Creating your account…" : "Signing in…") : title}
            </button>
          </Form>
          <p>
            {registering ? (
              <Link to={`/login?next=${encodeURIComponent(next)}`}>I already have an account</Link>
            ) : (
              <Link to={`/login?mode=register&next=${encodeURIComponent(next)}`}>Create an account</Link>
            )}
          </p>
        </>
      )}
    </section>
  );
}
