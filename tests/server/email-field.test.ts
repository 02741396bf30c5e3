import { describe, expect, it } from "vitest";
import { contactSchema } from "~/features/contact/contact-form";
import { signupSchema } from "~/features/leads/signup.server";
import { deleteAccountSchema } from "~/features/privacy/account-forms";
import { emailSchema } from "~/utils/email-schema";
import { EMAIL_MAX_LENGTH, isMailAddress, normaliseEmail } from "~/utils/mail-address";

// One e-mail rule for every form and API: the same limit (RFC 5321's 254) and the same normalisation.
const longest = `${"a".repeat(EMAIL_MAX_LENGTH - "@example.com".length)}@example.com`;
const forms = {
  signup: (email: string) => signupSchema.safeParse({ email, firstName: "Ada" }),
  contact: (email: string) => contactSchema.safeParse({ name: "Ada", email, subject: "Hi", message: "Hello" }),
  deleteAccount: (email: string) => deleteAccountSchema.safeParse({ email }),
  api: (email: string) => emailSchema().safeParse(email),
};

describe("the e-mail field", () => {
  it("is 254 characters at most", () => {
    expect(EMAIL_MAX_LENGTH).toBe(254);
    expect(longest).toHaveLength(254);
  });

  it.each(Object.entries(forms))(
    "%s: takes 254 characters, refuses 255, and stores the address trimmed and lower-cased",
    (_, parse) => {
      expect(parse(longest).success).toBe(true);
      expect(parse(`a${longest}`).success).toBe(false);
      expect(parse("not an address").success).toBe(false);
      const parsed = parse("  Ada.Lovelace@Example.ORG ");
      expect(parsed.success).toBe(true);
      const data: unknown = parsed.data;
      expect(typeof data === "string" ? data : (data as { email: string }).email).toBe("ada.lovelace@example.org");
    },
  );

  it("tells a missing address apart where the form asks", () => {
    expect(deleteAccountSchema.safeParse({}).error?.issues[0]?.message).toBe("Type your e-mail address to confirm.");
    expect(deleteAccountSchema.safeParse({ email: "x" }).error?.issues[0]?.message).toMatch(
      /^That is not the e-mail address of this account/,
    );
    expect(contactSchema.safeParse({ name: "Ada", subject: "Hi", message: "Hello" }).error?.issues[0]?.message).toBe(
      "Please enter a valid email address.",
    );
  });

  it("normalises like the schema, and mail accepts what the schema accepts", () => {
    expect(normaliseEmail("  Ada@Example.ORG ")).toBe("ada@example.org");
    expect(isMailAddress(longest)).toBe(true);
    expect(isMailAddress(`a${longest}`)).toBe(false);
  });
});
