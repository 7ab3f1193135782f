/// Small photos.search responses written for these tests (not real Flickr data), in the shape Flickr answers
/// with `format=json&nojsoncallback=1`.
enum FlickrResponseFixtures {
    /// Three good photos, with the members Flickr adds around the ones we use.
    static let normal = #"""
        {"photos":{"page":1,"pages":12,"perpage":10,"total":"118","photo":[
          {"id":"53247432398","owner":"10001@N01","secret":"3c5b1e2f4a","server":"65535","farm":66,
           "title":"Premiere night","ispublic":1,"isfriend":0,"isfamily":0},
          {"id":"4711","owner":"10002@N01","secret":"abc123","server":"7","farm":1,
           "title":"Poster","ispublic":1,"isfriend":0,"isfamily":0},
          {"id":"99","owner":"10003@N01","secret":"fff000","server":"2048","farm":5,
           "title":"","ispublic":1,"isfriend":0,"isfamily":0}
        ]},"stat":"ok"}
        """#

    static let normalURLs = [
        "http://farm66.static.flickr.com/65535/53247432398_3c5b1e2f4a.jpg",
        "http://farm1.static.flickr.com/7/4711_abc123.jpg",
        "http://farm5.static.flickr.com/2048/99_fff000.jpg",
    ]

    /// `farm` in every accepted form: a number, a string of digits, and whole numbers written as decimals.
    static let farmForms = #"""
        {"photos":{"photo":[
          {"id":"1","secret":"e1","server":"10","farm":3},
          {"id":"2","secret":"e2","server":"10","farm":"3"},
          {"id":"3","secret":"e3","server":"10","farm":"07"},
          {"id":"4","secret":"e4","server":"10","farm":4.0},
          {"id":"5","secret":"e5","server":"10","farm":5e0},
          {"id":"6","secret":"e6","server":"10","farm":0.6e1},
          {"id":"7","secret":"e7","server":"10","farm":0}
        ]},"stat":"ok"}
        """#

    static let farmFormURLs = [
        "http://farm3.static.flickr.com/10/1_e1.jpg",
        "http://farm3.static.flickr.com/10/2_e2.jpg",
        "http://farm7.static.flickr.com/10/3_e3.jpg",
        "http://farm4.static.flickr.com/10/4_e4.jpg",
        "http://farm5.static.flickr.com/10/5_e5.jpg",
        "http://farm6.static.flickr.com/10/6_e6.jpg",
        "http://farm0.static.flickr.com/10/7_e7.jpg",
    ]

    /// `farm` values that are not a non-negative integer: each photo is skipped.
    static let badFarms = #"""
        {"photos":{"photo":[
          {"id":"1","secret":"e","server":"1","farm":1.5},
          {"id":"2","secret":"e","server":"1","farm":-1},
          {"id":"3","secret":"e","server":"1","farm":"1.0"},
          {"id":"4","secret":"e","server":"1","farm":""},
          {"id":"5","secret":"e","server":"1","farm":"five"},
          {"id":"6","secret":"e","server":"1","farm":" 5"},
          {"id":"7","secret":"e","server":"1","farm":"-5"},
          {"id":"8","secret":"e","server":"1","farm":true},
          {"id":"9","secret":"e","server":"1","farm":null},
          {"id":"10","secret":"e","server":"1","farm":[5]},
          {"id":"11","secret":"e","server":"1","farm":1e300},
          {"id":"12","secret":"e","server":"1","farm":"99999999999999999999"},
          {"id":"13","secret":"e","server":"1","farm":2}
        ]},"stat":"ok"}
        """#

    /// One good photo between photos that each lack one field.
    static let missingFields = #"""
        {"photos":{"photo":[
          {"secret":"e1","server":"1","farm":1},
          {"id":"2","server":"1","farm":1},
          {"id":"3","secret":"e3","server":"1","farm":1},
          {"id":"4","secret":"e4","farm":1},
          {"id":"5","secret":"e5","server":"1"},
          {}
        ]},"stat":"ok"}
        """#

    /// Fields of the wrong type, photos that are not objects, and strings that could not go into a URL as
    /// they are; the last photo is good.
    static let wrongTypes = #"""
        {"photos":{"photo":[
          {"id":101,"secret":"e","server":"1","farm":1},
          {"id":"102","secret":null,"server":"1","farm":1},
          {"id":"103","secret":"e","server":["1"],"farm":1},
          {"id":"104","secret":"e","server":"1","farm":{"n":1}},
          {"id":"105","secret":"e","server":"1/2","farm":1},
          {"id":"1 6","secret":"e","server":"1","farm":1},
          {"id":"107","secret":"","server":"1","farm":1},
          {"id":"108","secret":"s?x","server":"1","farm":1},
          {"id":"109","secret":"e","server":"1","farm":1},
          "110",
          42,
          null,
          ["111"]
        ]},"stat":"ok"}
        """#

    static let emptyPhotoArray = #"""
        {"photos":{"page":1,"pages":0,"perpage":10,"total":"0","photo":[]},"stat":"ok"}
        """#

    static let statFail = #"""
        {"stat":"fail","code":100,"message":"Invalid API Key (Key has invalid format)"}
        """#

    static let statFailWithCodeAsString = #"""
        {"stat":"fail","code":"105","message":"Service currently unavailable"}
        """#

    static let statFailWithoutMessage = #"{"stat":"fail","code":3}"#

    static let statFailWithoutCode = #"{"stat":"fail","message":"Something broke"}"#

    /// A failure wins over photos that happen to be present.
    static let statFailWithPhotos = #"""
        {"photos":{"photo":[{"id":"1","secret":"e","server":"1","farm":1}]},"stat":"fail","code":10,
         "message":"Sorry, the Flickr search API is not currently available."}
        """#

    /// A trailing comma on line 4.
    static let malformed = """
        {
          "photos": {
            "photo": [
              {"id": "1",}
            ]
          },
          "stat": "ok"
        }
        """

    /// What Flickr sends without `nojsoncallback=1`.
    static let jsonp = #"jsonFlickrApi({"photos":{"photo":[]},"stat":"ok"})"#

    static let truncated = #"{"photos":{"photo":[{"id":"1","#

    static let notAnObject = #"[{"id":"1","secret":"e","server":"1","farm":1}]"#

    static let photosMissing = #"{"stat":"ok"}"#

    static let photosNotAnObject = #"{"photos":[],"stat":"ok"}"#

    static let photoMissing = #"{"photos":{"page":1,"pages":0},"stat":"ok"}"#

    static let photoNotAnArray = #"{"photos":{"photo":{"id":"1"}},"stat":"ok"}"#

    static let unknownStat = #"{"photos":{"photo":[]},"stat":"maybe"}"#

    static let statNotAString = #"{"photos":{"photo":[]},"stat":1}"#

    static let statAbsent = #"{"photos":{"photo":[{"id":"1","secret":"e","server":"2","farm":3}]}}"#
}
