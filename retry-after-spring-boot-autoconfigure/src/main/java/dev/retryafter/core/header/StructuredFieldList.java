package dev.retryafter.core.header;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * A strict parser for the part of RFC 9651 (Structured Field Values for HTTP) that the
 * {@code RateLimit-Policy} and {@code RateLimit} fields use: a List of Items, each a bare item
 * with Parameters. Bare items may be Integers, Decimals, Strings, Tokens, Byte Sequences and
 * Booleans; Inner Lists, Dates and Display Strings are not needed by these fields, so a field
 * that holds one is rejected. A pure function: one pass over the input, no exceptions, no
 * value decoded that nobody reads (Byte Sequences are checked, not decoded).
 * <p>
 * As RFC 9651 section 4.2 requires, any parse failure fails the whole field: the caller then
 * ignores it.
 */
final class StructuredFieldList {

	/**
	 * The longest field value parsed, all its lines together: a server's quota fields are a
	 * few dozen characters, and a longer one is ignored rather than parsed into a large list.
	 */
	static final int MAX_LENGTH = 4096;

	// RFC 9651 section 3.3.1: an Integer has at most 15 digits.
	private static final int MAX_INTEGER_DIGITS = 15;

	private final String input;

	private int pos;

	private StructuredFieldList(String input) {
		this.input = input;
	}

	/**
	 * Parses the field lines of one List field, combined as RFC 9110 section 5.3 combines
	 * them (with commas, in order).
	 * @param fieldLines the field's lines; an empty list is the field's absence
	 * @return the members, or {@code null} when the field is absent, too long, or malformed
	 */
	static @Nullable List<Item> parse(List<String> fieldLines) {
		if (fieldLines.isEmpty()) {
			return null;
		}
		int length = 0;
		for (String line : fieldLines) {
			if (line == null) {
				return null;
			}
			length += line.length() + 1;
			if (length > MAX_LENGTH) {
				return null;
			}
		}
		String combined = (fieldLines.size() == 1) ? fieldLines.get(0) : String.join(",", fieldLines);
		return new StructuredFieldList(combined).list();
	}

	// RFC 9651 section 4.2 (parsing), 4.2.1 (List).
	private @Nullable List<Item> list() {
		int end = this.input.length();
		while (end > 0 && this.input.charAt(end - 1) == ' ') {
			end--;
		}
		skipSpaces();
		List<Item> members = new ArrayList<>(2);
		if (this.pos >= end) {
			// An empty List field is the same as no field.
			return null;
		}
		while (this.pos < end) {
			Item item = item(end);
			if (item == null) {
				return null;
			}
			members.add(item);
			skipOws(end);
			if (this.pos >= end) {
				return Collections.unmodifiableList(members);
			}
			if (this.input.charAt(this.pos) != ',') {
				return null;
			}
			this.pos++;
			skipOws(end);
			if (this.pos >= end) {
				// A trailing comma.
				return null;
			}
		}
		return Collections.unmodifiableList(members);
	}

	private @Nullable Item item(int end) {
		Value bare = bareItem(end);
		if (bare == null) {
			return null;
		}
		Map<String, Value> parameters = parameters(end);
		return (parameters != null) ? new Item(bare, parameters) : null;
	}

	// RFC 9651 section 4.2.3.2: later duplicates overwrite earlier ones.
	private @Nullable Map<String, Value> parameters(int end) {
		Map<String, Value> parameters = null;
		while (this.pos < end && this.input.charAt(this.pos) == ';') {
			this.pos++;
			skipSpaces();
			String key = key(end);
			if (key == null) {
				return null;
			}
			Value value = Value.TRUE;
			if (this.pos < end && this.input.charAt(this.pos) == '=') {
				this.pos++;
				value = bareItem(end);
				if (value == null) {
					return null;
				}
			}
			if (parameters == null) {
				parameters = new LinkedHashMap<>();
			}
			parameters.put(key, value);
		}
		return (parameters != null) ? Collections.unmodifiableMap(parameters) : Map.of();
	}

	// RFC 9651 section 4.2.3.3.
	private @Nullable String key(int end) {
		int start = this.pos;
		if (start >= end) {
			return null;
		}
		char first = this.input.charAt(start);
		if (!isLcAlpha(first) && first != '*') {
			return null;
		}
		this.pos++;
		while (this.pos < end) {
			char c = this.input.charAt(this.pos);
			if (!isLcAlpha(c) && !isDigit(c) && c != '_' && c != '-' && c != '.' && c != '*') {
				break;
			}
			this.pos++;
		}
		return this.input.substring(start, this.pos);
	}

	// RFC 9651 section 4.2.3.1.
	private @Nullable Value bareItem(int end) {
		if (this.pos >= end) {
			return null;
		}
		char c = this.input.charAt(this.pos);
		if (c == '-' || isDigit(c)) {
			return number(end);
		}
		if (c == '"') {
			return string(end);
		}
		if (isAlpha(c) || c == '*') {
			return token(end);
		}
		if (c == ':') {
			return byteSequence(end);
		}
		if (c == '?') {
			return bool(end);
		}
		// Inner Lists, Dates and Display Strings: not used by these fields.
		return null;
	}

	// RFC 9651 section 4.2.4.
	private @Nullable Value number(int end) {
		boolean negative = false;
		if (this.input.charAt(this.pos) == '-') {
			negative = true;
			this.pos++;
		}
		long integer = 0;
		int digits = 0;
		while (this.pos < end && isDigit(this.input.charAt(this.pos))) {
			if (++digits > MAX_INTEGER_DIGITS) {
				return null;
			}
			integer = integer * 10 + (this.input.charAt(this.pos) - '0');
			this.pos++;
		}
		if (digits == 0) {
			return null;
		}
		if (this.pos < end && this.input.charAt(this.pos) == '.') {
			// A Decimal: at most 12 integer and 3 fraction digits. Only its syntax matters here
			// (no parameter these fields read is a Decimal), so its value is not kept.
			if (digits > 12) {
				return null;
			}
			this.pos++;
			int fraction = 0;
			while (this.pos < end && isDigit(this.input.charAt(this.pos))) {
				if (++fraction > 3) {
					return null;
				}
				this.pos++;
			}
			return (fraction == 0) ? null : Value.DECIMAL;
		}
		return Value.integer(negative ? -integer : integer);
	}

	// RFC 9651 section 4.2.5.
	private @Nullable Value string(int end) {
		this.pos++;
		StringBuilder text = null;
		int runStart = this.pos;
		while (this.pos < end) {
			char c = this.input.charAt(this.pos);
			if (c == '\\') {
				if (this.pos + 1 >= end) {
					return null;
				}
				char escaped = this.input.charAt(this.pos + 1);
				if (escaped != '"' && escaped != '\\') {
					return null;
				}
				if (text == null) {
					text = new StringBuilder();
				}
				text.append(this.input, runStart, this.pos).append(escaped);
				this.pos += 2;
				runStart = this.pos;
			}
			else if (c == '"') {
				String value = (text == null) ? this.input.substring(runStart, this.pos)
						: text.append(this.input, runStart, this.pos).toString();
				this.pos++;
				return new Value(Kind.STRING, 0, value);
			}
			else if (c < 0x20 || c > 0x7E) {
				return null;
			}
			else {
				this.pos++;
			}
		}
		// No closing quote.
		return null;
	}

	// RFC 9651 section 4.2.6: tchar, ":" and "/" after a leading ALPHA or "*".
	private Value token(int end) {
		int start = this.pos;
		this.pos++;
		while (this.pos < end && isTokenChar(this.input.charAt(this.pos))) {
			this.pos++;
		}
		return new Value(Kind.TOKEN, 0, this.input.substring(start, this.pos));
	}

	// RFC 9651 section 4.2.7: base64 characters between colons. Checked, never decoded; only
	// a one-way digest of the text is kept (a partition key may be derived from a credential).
	private @Nullable Value byteSequence(int end) {
		this.pos++;
		int start = this.pos;
		while (this.pos < end) {
			char c = this.input.charAt(this.pos);
			if (c == ':') {
				this.pos++;
				return new Value(Kind.BYTES, 0, QuotaPartitionKey.digest(this.input, start, this.pos - 1));
			}
			if (!isAlpha(c) && !isDigit(c) && c != '+' && c != '/' && c != '=') {
				return null;
			}
			this.pos++;
		}
		return null;
	}

	// RFC 9651 section 4.2.8.
	private @Nullable Value bool(int end) {
		if (this.pos + 1 >= end) {
			return null;
		}
		char c = this.input.charAt(this.pos + 1);
		this.pos += 2;
		if (c == '1') {
			return Value.TRUE;
		}
		return (c == '0') ? Value.FALSE : null;
	}

	private void skipSpaces() {
		while (this.pos < this.input.length() && this.input.charAt(this.pos) == ' ') {
			this.pos++;
		}
	}

	private void skipOws(int end) {
		while (this.pos < end && (this.input.charAt(this.pos) == ' ' || this.input.charAt(this.pos) == '\t')) {
			this.pos++;
		}
	}

	private static boolean isDigit(char c) {
		return c >= '0' && c <= '9';
	}

	private static boolean isLcAlpha(char c) {
		return c >= 'a' && c <= 'z';
	}

	private static boolean isAlpha(char c) {
		return isLcAlpha(c) || (c >= 'A' && c <= 'Z');
	}

	// tchar (RFC 9110 section 5.6.2) plus ":" and "/".
	private static boolean isTokenChar(char c) {
		return isAlpha(c) || isDigit(c) || "!#$%&'*+-.^_`|~:/".indexOf(c) >= 0;
	}

	/** What kind of bare item a value is. */
	enum Kind {

		INTEGER, DECIMAL, STRING, TOKEN, BYTES, BOOLEAN

	}

	/**
	 * A bare item: an Integer's value in {@code integer}, a String's or Token's in
	 * {@code text}, a Boolean's as {@code integer} 1 or 0, a Byte Sequence's as a one-way
	 * digest ({@link QuotaPartitionKey}) in {@code text}; a Decimal's value is not kept.
	 */
	record Value(Kind kind, long integer, String text) {

		static final Value TRUE = new Value(Kind.BOOLEAN, 1, "");

		static final Value FALSE = new Value(Kind.BOOLEAN, 0, "");

		static final Value DECIMAL = new Value(Kind.DECIMAL, 0, "");

		static Value integer(long value) {
			return new Value(Kind.INTEGER, value, "");
		}

		/** The text of a String or a Token, else {@code null}. */
		@Nullable String name() {
			return (this.kind == Kind.STRING || this.kind == Kind.TOKEN) ? this.text : null;
		}

	}

	/** A List member: its bare item and its parameters, in order. */
	record Item(Value value, Map<String, Value> parameters) {

		/** A parameter that is a non-negative Integer, or -1 when absent or of another kind. */
		long nonNegative(String key) {
			Value value = this.parameters.get(key);
			return (value != null && value.kind() == Kind.INTEGER && value.integer() >= 0) ? value.integer() : -1;
		}

	}

}
