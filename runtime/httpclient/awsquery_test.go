package httpclient

import (
	"net/http"
	"strings"
	"testing"
)

// TestAWSQuery: lists, structures and maps in the query as the AWS query
// protocols send them (STS's PolicyArns.member.1.arn, EC2's
// Filter.1.Name and Filter.1.Value.1).
func TestAWSQuery(t *testing.T) {
	type policy struct {
		Arn string `json:"arn"`
	}
	type filter struct {
		Name   string   `json:"Name"`
		Values []string `json:"Value,omitempty"`
	}
	base, err := parseBaseURL("http://h")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		style Style
		v     any
		want  string
	}{
		{"PolicyArns", StyleAWSQuery, []policy{{"arn:a"}, {"arn:b"}}, "PolicyArns.member.1.arn=arn%3Aa&PolicyArns.member.2.arn=arn%3Ab"},
		{"Filter", StyleAWSEC2, []filter{{"tag:k", []string{"a b", "c"}}}, "Filter.1.Name=tag%3Ak&Filter.1.Value.1=a%20b&Filter.1.Value.2=c"},
		{"Filter", StyleAWSQuery, []filter{{Name: "n"}}, "Filter.member.1.Name=n"},
		{"Tags", StyleAWSQuery, map[string]string{"b": "2", "a": "1"}, "Tags.entry.1.key=a&Tags.entry.1.value=1&Tags.entry.2.key=b&Tags.entry.2.value=2"},
		{"LoggingConfig", StyleAWSQuery, &struct {
			Role  string `json:"LogRoleArn"`
			Group string `json:"LogGroupName"`
		}{"r", "g"}, "LoggingConfig.LogRoleArn=r&LoggingConfig.LogGroupName=g"},
		{"Names", StyleAWSQuery, []string{}, "Names="},
		{"Names", StyleAWSQuery, []string(nil), ""},
		{"Count", StyleAWSQuery, 3, "Count=3"},
	}
	for _, tc := range cases {
		r := New("http://h", nil).NewRequest("op", http.MethodGet, "/")
		r.QueryParam(tc.name, tc.style, true, false, tc.v)
		if r.err != nil {
			t.Errorf("%s %v: %v", tc.style, tc.v, r.err)
			continue
		}
		u, err := r.buildURL(base)
		if err != nil {
			t.Fatal(err)
		}
		want := "http://h/"
		if tc.want != "" {
			want += "?" + tc.want
		}
		if u != want {
			t.Errorf("%s %v:\n got %s\nwant %s", tc.style, tc.v, u, want)
		}
	}
	r := New("http://h", nil).NewRequest("op", http.MethodGet, "/")
	r.QueryParam("Bad", StyleAWSQuery, true, false, []chan int{make(chan int)})
	if r.err == nil {
		t.Error("a channel was serialized")
	}
}

// TestAWSQueryBody: a query-protocol body is a form of the members
// flattened as in the query (lists Name.member.N, EC2's Name.N, maps
// Name.entry.N.key/value), with its Content-Type; nil sends no body and a
// non-object is refused naming the body.
func TestAWSQueryBody(t *testing.T) {
	type tag struct {
		Key   string `json:"Key"`
		Value string `json:"Value"`
	}
	type body struct {
		RoleArn string            `json:"RoleArn"`
		Tags    []tag             `json:"Tags,omitempty"`
		IDs     []string          `json:"Id,omitempty"`
		Attrs   map[string]string `json:"Attributes,omitempty"`
		Skip    *string           `json:"Skip,omitempty"`
	}
	v := body{RoleArn: "arn:a", Tags: []tag{{"k", "a b"}}, IDs: []string{"i-1", "i-2"}, Attrs: map[string]string{"x": "1"}}
	for _, tc := range []struct {
		style Style
		want  string
	}{
		{StyleAWSQuery, "RoleArn=arn%3Aa&Tags.member.1.Key=k&Tags.member.1.Value=a+b&Id.member.1=i-1&Id.member.2=i-2&Attributes.entry.1.key=x&Attributes.entry.1.value=1"},
		{StyleAWSEC2, "RoleArn=arn%3Aa&Tags.1.Key=k&Tags.1.Value=a+b&Id.1=i-1&Id.2=i-2&Attributes.entry.1.key=x&Attributes.entry.1.value=1"},
	} {
		r := New("http://h", nil).NewRequest("op", http.MethodPost, "/")
		r.AWSQueryBody(v, tc.style)
		if r.err != nil {
			t.Fatal(r.err)
		}
		if r.contentType != "application/x-www-form-urlencoded" || string(r.body) != tc.want {
			t.Errorf("%s: %s %s, want %s", tc.style, r.contentType, r.body, tc.want)
		}
	}
	r := New("http://h", nil).NewRequest("op", http.MethodPost, "/")
	r.AWSQueryBody((*body)(nil), StyleAWSQuery)
	if r.err != nil || r.body != nil {
		t.Errorf("nil body: %v %q", r.err, r.body)
	}
	r.AWSQueryBody(3, StyleAWSQuery)
	if r.err == nil || !strings.Contains(r.err.Error(), "form body") {
		t.Errorf("a number as body: %v", r.err)
	}
}
