import { describe, expect, it } from "vitest";
import { missingMessage, optionalText, requiredText, tooLongMessage } from "~/features/forms/text-field";
import { LEAD_LIMITS, NEWSLETTER_TEXT } from "~/features/leads/newsletter";

const errors = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((i) => i.message) ?? [];

// Every form's text field is built by one rule, with the site's one wording of its errors.
describe("text fields", () => {
  it("a required field refuses a missing or blank value and one over the limit, and trims", () => {
    const title = requiredText("title", 2_000);
    expect(errors(title.safeParse(undefined))).toEqual(["Please enter a title."]);
    expect(errors(title.safeParse("   "))).toEqual(["Please enter a title."]);
    expect(errors(title.safeParse("x".repeat(2_001)))).toEqual(["Please keep the title to 2,000 characters."]);
    expect(title.parse("  Seed round  ")).toBe("Seed round");
  });

  it("says 'an' before a vowel, and a field may say its own missing message", () => {
    expect(missingMessage("id")).toBe("Please enter an id.");
    expect(missingMessage("answer")).toBe("Please enter an answer.");
    const signature = requiredText("name", 120, "Please type your full name.");
    expect(errors(signature.safeParse(""))).toEqual(["Please type your full name."]);
  });

  it("an optional field is '' when absent and refuses only a value over the limit", () => {
    const firm = optionalText("firm", 10);
    expect(firm.parse(undefined)).toBe("");
    expect(firm.parse(" Acme ")).toBe("Acme");
    expect(errors(firm.safeParse("x".repeat(11)))).toEqual(["Please keep the firm to 10 characters."]);
  });

  it("the newsletter's name messages (plain data, no zod in its bundle) read as the rule's", () => {
    expect(NEWSLETTER_TEXT.firstNameTooLong).toBe(tooLongMessage("first name", LEAD_LIMITS.name));
    expect(NEWSLETTER_TEXT.lastNameTooLong).toBe(tooLongMessage("last name", LEAD_LIMITS.name));
  });
});
