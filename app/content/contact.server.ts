import { env } from "cloudflare:workers";

export type ContactDetails = { email: string; phone: string; hours: string; address: string };

/** The operator's contact details, set as vars in wrangler.toml. */
export function contactDetails(): ContactDetails {
  const details = {
    email: env.CONTACT_EMAIL,
    phone: env.CONTACT_PHONE,
    hours: env.CONTACT_HOURS,
    address: env.CONTACT_ADDRESS,
  };
  // A page that shows wrong contact details is worse than an error the operator hears about.
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(details.email ?? "")) {
    throw new Error("CONTACT_EMAIL is not set to an email address; /contact cannot show the contact details.");
  }
  return details;
}
