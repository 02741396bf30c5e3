import { describe, expect, it } from "vitest";
import { contactSchema } from "~/features/contact/contact-form";
import { signupSchema } from "~/features/leads/signup.server";
import { deleteAccountSchema } from "~/features/privacy/account-forms";
import { displayAddress } from "~/utils/address-display.server";
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

  it("takes an internationalised domain, stored in its ASCII form (punycode)", () => {
    for (const parse of Object.values(forms)) {
      const parsed = parse("Zoe@Exämple.com");
      const data: unknown = parsed.data;
      expect(typeof data === "string" ? data : (data as { email: string }).email).toBe("zoe@xn--exmple-cua.com");
    }
    expect(displayAddress("zoe@xn--exmple-cua.com")).toBe("zoe@exämple.com");
    expect(displayAddress("ada@example.org")).toBe("ada@example.org");
  });

  it("keeps the product's words and adds the reason: the character it cannot deliver, the 254 limit", () => {
    const message = (email: string) => emailSchema().safeParse(email).error?.issues[0]?.message;
    expect(message("zoë@exämple.com")).toBe(
      "Please enter a valid email address. Our mail service cannot deliver to “ë” before the @.",
    );
    expect(message(`${"a".repeat(250)}@example.com`)).toBe(
      "Please enter a valid email address. An address can be at most 254 characters.",
    );
    // Under 254 as typed, over it once the domain is in its ASCII form.
    expect(message(`${"a".repeat(236)}@${"ä".repeat(12)}.com`)).toBe(
      "Please enter a valid email address. An address can be at most 254 characters.",
    );
    expect(message("not an address")).toBe("Please enter a valid email address.");
    expect(message("ada@exa mple.com")).toBe("Please enter a valid email address.");
    expect(message("ada@exä/mple.com")).toBe(
      "Please enter a valid email address. Its domain, after the @, is not one mail can be sent to.",
    );
  });

  it("normalises like the schema, and mail accepts what the schema accepts", () => {
    expect(normaliseEmail("  Ada@Example.ORG ")).toBe("ada@example.org");
    expect(isMailAddress(longest)).toBe(true);
    expect(isMailAddress(`a${longest}`)).toBe(false);
  });
});
