import { useFetcher } from "react-router";
import type { AccountDevice } from "#contract/account-safety";
import { useAnnounceSuccess } from "../components/announcer";
import { DateTime } from "../components/money";
import type { ActionResult } from "../forms/action-result";
import { FormAlert, SubmitButton } from "../forms/fields";
import { useMessages } from "../i18n/messages";
import { accountMessages } from "../messages/account";

function DeviceItem({ device }: { device: AccountDevice }) {
  const text = useMessages(accountMessages);
  const fetcher = useFetcher<ActionResult>();
  const name = device.device ?? text.unknownDevice;
  useAnnounceSuccess(fetcher.data, text.deviceForgotten);
  return (
    <li className="item">
      <div className="item-main">
        <span className="item-title">
          {name}
          {device.current ? <span className="badge badge-open"> {text.thisDevice}</span> : null}
        </span>
        <span className="item-meta">
          {text.rememberedSince} <DateTime iso={device.createdAt} /> · {text.lastUsed} <DateTime iso={device.lastUsedAt} />
        </span>
      </div>
      <fetcher.Form method="post">
        <FormAlert result={fetcher.data} />
        <input type="hidden" name="intent" value="forgetDevice" />
        <input type="hidden" name="id" value={device.id} />
        <SubmitButton
          busy={fetcher.state !== "idle"}
          busyLabel={text.forgetting}
          className="button button-secondary"
          label={text.forgetLabel(name)}
        >
          {text.forget}
        </SubmitButton>
      </fetcher.Form>
    </li>
  );
}

/**
 * The browsers that have proved the password (docs/decisions/069-known-devices-listed.md):
 * this one too, since a person may forget the shared computer they are using now.
 */
export function DevicesSection({ devices }: { devices: AccountDevice[] }) {
  const text = useMessages(accountMessages);
  return (
    <section className="card" aria-labelledby="devices-title">
      <h2 id="devices-title">{text.devicesTitle}</h2>
      <p>{text.devicesLead}</p>
      {devices.length > 0 ? (
        <ul className="item-list" aria-labelledby="devices-title" data-testid="account-devices">
          {devices.map((device) => (
            <DeviceItem key={device.id} device={device} />
          ))}
        </ul>
      ) : (
        <p data-testid="account-devices-none">{text.noDevices}</p>
      )}
    </section>
  );
}
