import { describe, expect, it } from "@effect/vitest"
import { asciiOnly, pythonNumber, sortedJson, sortedJsonText } from "../../src/internal/sortedJson.js"

// Each JSON number literal and what Python writes for it: json.dumps(json.loads(literal)),
// computed with CPython 3 (random ones included, seeded).
const python: ReadonlyArray<readonly [string, string]> = [
  ["0", "0"],
  ["-0", "0"],
  ["1", "1"],
  ["-1", "-1"],
  ["1.0", "1.0"],
  ["-1.0", "-1.0"],
  ["0.0", "0.0"],
  ["-0.0", "-0.0"],
  ["1e5", "100000.0"],
  ["1E5", "100000.0"],
  ["1e+5", "100000.0"],
  ["1e-5", "1e-05"],
  ["1.5e300", "1.5e+300"],
  ["1e400", "Infinity"],
  ["-1e400", "-Infinity"],
  ["9007199254740993", "9007199254740993"],
  ["-9007199254740993", "-9007199254740993"],
  ["123456789012345678901234567890", "123456789012345678901234567890"],
  ["0.1", "0.1"],
  ["0.000001", "1e-06"],
  ["0.0001", "0.0001"],
  ["1e16", "1e+16"],
  ["1e15", "1000000000000000.0"],
  ["123.456", "123.456"],
  ["1.10", "1.1"],
  ["2.5", "2.5"],
  ["5e-324", "5e-324"],
  ["1.7976931348623157e308", "1.7976931348623157e+308"],
  ["12345678901234567890.5", "1.2345678901234567e+19"],
  ["100.0", "100.0"],
  ["1e21", "1e+21"],
  ["1e-7", "1e-07"],
  ["0.30000000000000004", "0.30000000000000004"],
  ["3.141592653589793238462643383279", "3.141592653589793"],
  ["1234567890123456.7", "1234567890123456.8"],
  ["12345678901234567.0", "1.2345678901234568e+16"],
  ["21250919909e-5", "212509.19909"],
  ["6.509344730398537e-07", "6.509344730398537e-07"],
  ["5992e7", "59920000000.0"],
  ["5799892.47747068", "5799892.47747068"],
  ["629073e-25", "6.29073e-20"],
  ["4.3364568366238583e-07", "4.3364568366238583e-07"],
  ["12175295e5", "1217529500000.0"],
  ["4.24519189142514e+17", "4.24519189142514e+17"],
  ["3658e10", "36580000000000.0"],
  ["6.274332224055893e-08", "6.274332224055893e-08"],
  ["816993325457e5", "8.16993325457e+16"],
  ["8.584684590486795", "8.584684590486795"],
  ["76094555154085e-23", "7.6094555154085e-10"],
  ["570913689.6467344", "570913689.6467344"],
  ["108062e7", "1080620000000.0"],
  ["0.005712043914117923", "0.005712043914117923"],
  ["601713882579e15", "6.01713882579e+26"],
  ["6.2788974973323135e-09", "6.2788974973323135e-09"],
  ["8328454e13", "8.328454e+19"],
  ["5317202465801857.0", "5317202465801857.0"],
  ["79309156113e29", "7.9309156113e+39"],
  ["4.531843763707753", "4.531843763707753"],
  ["24127885e14", "2.4127885e+21"],
  ["7.798296305842437e-07", "7.798296305842437e-07"]
]

describe("internal/sortedJson: JSON written again as Python's json.dumps(json.loads(text), sort_keys=True)", () => {
  it("numbers: integers keep every digit, floats are written as Python's repr", () => {
    for (const [literal, written] of python) expect([literal, pythonNumber(literal)]).toEqual([literal, written])
  })

  it("sorts keys by code point at every level, keeps a repeated key's last value and a \"__proto__\" key, drops spaces", () => {
    const text = String.raw`{ "b": [ 1.0 , {"y": 1, "x": 2e0} ], "\ud83d\ude00": 1, "\uffff": 2, "a": "x", "a": "y", "__proto__": {"k": null} }`
    // By code point U+FFFF comes before U+1F600 (by UTF-16 unit it would not).
    expect(asciiOnly(sortedJsonText(text))).toBe(String.raw`{"__proto__":{"k":null},"a":"y","b":[1.0,{"x":2.0,"y":1}],"\uffff":2,"\ud83d\ude00":1}`)
    expect(asciiOnly(sortedJsonText(String.raw`{"s": "caf\u00e9 ✓ \" \\ \n \u007f"}`))).toBe(String.raw`{"s":"caf\u00e9 \u2713 \" \\ \n \u007f"}`)
    expect(sortedJsonText(String.raw`{"s": "caf\u00e9"}`)).toBe(`{"s":"café"}`)
    expect(sortedJsonText(" [ ] ")).toBe("[]")
    expect(sortedJsonText("{ }")).toBe("{}")
    expect(sortedJsonText("true")).toBe("true")
  })

  it("refuses what is not JSON, and values nested too deep", () => {
    for (const text of ["", "{", "[1,]", "{'a': 1}", "NaN", "01", "1.", "\"\u0001\""]) {
      expect(() => sortedJsonText(text), text).toThrow()
    }
    expect(() => sortedJsonText("[".repeat(100) + "]".repeat(100))).toThrow(RangeError)
  })

  it("a JavaScript value is written as Python writes the JSON text JavaScript makes of it", () => {
    expect(sortedJson({ b: 1e21, a: 0.000001, c: 2.5, d: 3 })).toBe(`{"a":1e-06,"b":1e+21,"c":2.5,"d":3}`)
  })
})
