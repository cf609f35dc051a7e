import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import type { AccountDevice } from "#contract/account-safety";
import { useAnnounceSuccess } from "../components/announcer";
import { DateTime } from "../components/money";
import type { ActionResult } from "../forms/action-result";
import { FormAlert, PasswordField, SubmitButton } from "../forms/fields";
import { fieldError } from "../forms/failure-fields";
import { useFormInstance } from "../forms/use-form-instance";
import { useMessages } from "../i18n/messages";
import { accountMessages } from "../messages/account";

/** One device, and its button: which device the form forgets is the value of the button pressed. */
function DeviceItem({ device, busy, forgetting }: { device: AccountDevice; busy: boolean; forgetting: boolean }) {
  const text = useMessages(accountMessages);
  const name = device.device ?? text.unknownDevice;
  const meta = `device-${device.id}-meta`;
  return (
    <li className="item">
      <div className="item-main">
        <span className="item-title">
          {name}
          {device.current ? (
            <>
              {" "}
              <span className="badge badge-open">{text.thisDevice}</span>
            </>
          ) : null}
        </span>
        <span className="item-meta" id={meta}>
          {text.rememberedSince} <DateTime iso={device.createdAt} /> · {text.lastUsed} <DateTime iso={device.lastUsedAt} />
        </span>
      </div>
      <SubmitButton
        name="id"
        value={device.id}
        // Every button waits while one device is being forgotten; the one pressed says so.
        busy={forgetting}
        waiting={busy}
        busyLabel={text.forgetting}
        className="button button-secondary"
        label={text.forgetLabel(device.current ? `${name} (${text.thisDevice})` : name)}
        // Two devices may share a browser's name: the dates under it tell them apart.
        describedBy={meta}
      >
        {text.forget}
      </SubmitButton>
    </li>
  );
}

/**
 * The browsers that have proved the password (docs/decisions/069-known-devices-listed.md):
 * this one too, since a person may forget the shared computer they are using now. The
 * password is asked again, as for recovery codes: a stolen session alone forgets nothing.
 */
export function DevicesSection({ devices, handle }: { devices: AccountDevice[]; handle: string }) {
  const text = useMessages(accountMessages);
  const fetcher = useFetcher<ActionResult<{ devicesForgotten: number }>>();
  const result = fetcher.data;
  const { formRef } = useFormInstance(result);
  useAnnounceSuccess(result, text.deviceForgotten);
  // The button pressed leaves with its device: focus returns to the section's heading.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (result?.ok) heading.current?.focus();
  }, [result]);
  const busy = fetcher.state !== "idle";
  const pressed = fetcher.formData?.get("id");
  return (
    <section className="card" aria-labelledby="devices-title">
      <h2 id="devices-title" ref={heading} tabIndex={-1}>
        {text.devicesTitle}
      </h2>
      <p>{text.devicesLead}</p>
      {devices.length === 0 ? (
        <p data-testid="account-devices-none">{text.noDevices}</p>
      ) : (
        <fetcher.Form method="post" ref={formRef} noValidate>
          {/* Enter in the password field presses a form's first submit button, which would forget
              whichever device is listed first: a disabled first button makes Enter do nothing. */}
          <button type="submit" disabled hidden aria-hidden="true" tabIndex={-1} />
          {/* The password field is as narrow as any form's; the list below takes the card's width. */}
          <div className="form">
            <FormAlert result={result} fields={["password"]} />
            <input type="hidden" name="intent" value="forgetDevice" />
            {/* Which device is this browser: forgetting it drops its token here too. */}
            <input type="hidden" name="thisDevice" value={devices.find((device) => device.current)?.id ?? ""} />
            <input type="text" name="username" value={handle} autoComplete="username" readOnly hidden />
            <PasswordField
              id="account-devices-password"
              name="password"
              label={text.password}
              hint={text.forgetHint}
              autoComplete="current-password"
              error={fieldError(result, "password")}
            />
          </div>
          <ul className="item-list" aria-labelledby="devices-title" data-testid="account-devices">
            {devices.map((device) => (
              <DeviceItem key={device.id} device={device} busy={busy} forgetting={busy && pressed === device.id} />
            ))}
          </ul>
        </fetcher.Form>
      )}
    </section>
  );
}
